import Foundation

/// A stand-in for `stagemix compose`, as a real child process: reads how to behave from
/// `<capture>/behaviour` (steps, delay, exit code, failures before success, a gate file to wait for), prints progress
/// JSON lines, writes segments into a temp dir beside `--out`, renames it into place, and
/// records each run in `<capture>/runs` (its pid) and each SIGTERM in `<capture>/terminated`.
public enum ComposeScript {
    public static let source = #"""
        #!/usr/bin/env bash
        set -u
        capture="$1"; shift
        out=""
        while [ $# -gt 0 ]; do
          case "$1" in
            --out) out="$2"; shift 2 ;;
            *) shift ;;
          esac
        done
        steps=3; delay=0.05; code=0; fail_runs=0; fail_code=70
        [ -f "$capture/behaviour" ] && . "$capture/behaviour"
        echo "$$" >> "$capture/runs"
        run=$(wc -l < "$capture/runs")
        # Staged as compose stages: a hidden name beside --out naming this process, which the worker sweeps once it is dead.
        tmp="$(dirname "$out")/.$(basename "$out").stagemix-$$-$(cut -d' ' -f22 /proc/$$/stat)-1"
        mkdir -p "$tmp"
        # Stopped as compose stops on SIGTERM: its staging removed, exit 143; `terminated` says it was asked.
        trap 'echo "$$" >> "$capture/terminated"; rm -rf "$tmp"; exit 143' TERM
        for i in $(seq 1 "$steps"); do
          sleep "$delay"
          echo "segment $i of $capture" > "$tmp/segment$i.ts"
          echo "{\"event\":\"progress\",\"percent\":$(( i * 100 / steps )),\"speed\":1.0,\"etaSeconds\":1}"
        done
        # A test holds jobs here until it creates the gate file. The lines keep coming, as a real
        # compose's progress does, so an orphan dies of SIGPIPE once its worker is gone.
        if [ -n "${gate:-}" ]; then
          while [ ! -e "$gate" ]; do echo '{"event":"waiting"}'; sleep 0.05; done
        fi
        if [ "$run" -le "$fail_runs" ]; then echo "failing run $run on purpose" >&2; exit "$fail_code"; fi
        if [ "$code" != 0 ]; then echo "failing with $code on purpose" >&2; exit "$code"; fi
        echo "#EXTM3U $steps" > "$tmp/playlist.m3u8"
        mv "$tmp" "$out"
        """#

    /// Writes the script into `directory` and returns its path.
    public static func install(in directory: String) throws -> String {
        let path = "\(directory)/fake-compose.sh"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// Makes a capture directory whose compose behaves as `behaviour` says (shell assignments).
    public static func makeCapture(in directory: String, name: String, behaviour: String = "") throws -> String {
        let capture = "\(directory)/captures/\(name)"
        try FileManager.default.createDirectory(atPath: capture, withIntermediateDirectories: true)
        try behaviour.write(toFile: "\(capture)/behaviour", atomically: true, encoding: .utf8)
        return capture
    }

    /// The pid of each run, first run first.
    public static func pids(of capture: String) -> [Int32] {
        ((try? String(contentsOfFile: "\(capture)/runs", encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    /// How many runs were stopped by SIGTERM.
    public static func terminations(of capture: String) -> Int {
        ((try? String(contentsOfFile: "\(capture)/terminated", encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    public static func runs(of capture: String) -> Int {
        ((try? String(contentsOfFile: "\(capture)/runs", encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// True if `out` holds a whole output of `steps` segments and a playlist.
    public static func isWhole(_ out: String, steps: Int) -> Bool {
        // The publisher adds its marker to every output.
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).subtracting([".stagemix-output"])
        return names == Set((1...steps).map { "segment\($0).ts" } + ["playlist.m3u8"])
    }
}
