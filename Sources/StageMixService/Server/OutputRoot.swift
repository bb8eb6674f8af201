import Foundation
import StageMixPublishing

/// Where `stagemix serve` publishes compositions (`--output-root`: a local folder, made if missing, or
/// an `s3://` prefix, which must lie within `--allow-storage`), and the local folder it keeps the
/// documents requests give inline in for the jobs (`--inputs-root`). Checked before anything listens.
struct OutputRoot {
    let destination: OutputDestination
    /// Always local: the scratch files a request is checked from, and the documents its job reads.
    let inputs: URL

    init(_ configuration: ServiceConfiguration, storage: StorageAllowList) throws(ServiceSetupError) {
        let text = configuration.outputRoot
        let parsed: OutputDestination
        do {
            parsed = try OutputDestination(parsing: text)
        } catch {
            throw ServiceSetupError("--output-root \(text): \(error.message)")
        }
        switch parsed {
        case .folder(let folder):
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw ServiceSetupError("--output-root \(text): cannot create it (\(error.localizedDescription))")
            }
            destination = parsed
        case .bucket:
            guard let prefix = StorageAllowList.location(text) else {
                throw ServiceSetupError("--output-root \(text): expected s3://bucket/prefix, \(StorageAllowList.shape)")
            }
            guard storage.permits(prefix) else {
                throw ServiceSetupError("--output-root \(text): not within any --allow-storage prefix; allow it (or a prefix holding it) too")
            }
            destination = .bucket(prefix)
        }
        let defaultInputs = destination.folder?.appendingPathComponent(".stagemix-inputs") ?? URL(fileURLWithPath: "stagemix-inputs")
        inputs = (configuration.inputsRoot.map { URL(fileURLWithPath: $0) } ?? defaultInputs).standardizedFileURL
    }
}
