/// The page's stylesheet and script, inline so the page is one file. Colours are the Okabe-Ito set,
/// told apart by readers with any common colour-vision deficiency, with patterns besides colour for
/// paused and excluded; lost media is the one bright vermilion with a dark outline.
enum ReportPageStyle {
    /// Where each kind sits in its 24-unit lane: (y, height).
    static let band: [String: (Int, Int)] = [
        "onstage": (4, 12), "notshown": (4, 12), "muted": (10, 6), "paused": (4, 12), "speaking": (21, 3), "screenshare": (0, 3),
        "excluded": (2, 20), "lost": (1, 22), "layer": (17, 3),
    ]

    static let legend: [String: String] = [
        "onstage": "on stage", "notshown": "on stage, not shown (no tile)", "muted": "muted", "paused": "paused (held frame, then placeholder)", "speaking": "speaking",
        "screenshare": "screen share", "excluded": "excluded by edits", "lost": "media lost", "layer": "simulcast layer read",
    ]

    /// A CSS class for a tier by its place in the table's tiers (ascending, as `billing.json` lists
    /// them): `0` to `4` for the first five, `x` for any other, so a custom table is coloured too.
    static func tierClass(_ tier: String, in tiers: [String]) -> String {
        guard let index = tiers.firstIndex(of: tier), index < 5 else { return "x" }
        return String(index)
    }

    static let css = """
        :root{--fg:#1b1b1b;--muted:#5a5a5a;--bg:#fff;--line:#d0d0d0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
        body{margin:0 auto;max-width:1280px;padding:16px;line-height:1.4}
        h1{font-size:1.4rem;margin:0 0 8px}h2{font-size:1.1rem;margin:24px 0 8px}
        .id{font-family:ui-monospace,monospace;word-break:break-all}
        .facts{display:flex;flex-wrap:wrap;gap:8px 24px;margin:0}.facts div{min-width:120px}.facts dt{font-size:.8rem;color:var(--muted)}.facts dd{margin:0;font-weight:600}
        .warnings{border-left:4px solid #D55E00;background:#fff4ec;padding:4px 12px;margin-top:12px}.warnings ul{margin:4px 0;padding-left:18px}.warnings h2{margin:4px 0;font-size:1rem}
        .player video,.player .poster{width:100%;max-height:55vh;background:#000}
        .legend{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;padding:0;margin:0 0 6px;font-size:.85rem}.legend svg{vertical-align:middle;margin-right:4px}
        .hint{font-size:.8rem;color:var(--muted);margin:0 0 6px}
        .lanes{position:relative;border-top:1px solid var(--line)}
        .lane,.axis{display:flex;align-items:center;border-bottom:1px solid var(--line);min-height:26px}
        .name{flex:0 0 150px;width:150px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;padding-right:8px;font-size:.85rem}
        .track{flex:1 1 auto;height:24px;width:100%;cursor:pointer;display:block}
        .axis{border:0}.ticks{position:relative;flex:1;height:18px;font-size:.75rem;color:var(--muted)}.ticks span{position:absolute;transform:translateX(-50%)}.ticks span:first-child{transform:none}.ticks span:last-child{transform:translateX(-100%)}
        .removals{position:relative;flex:1;height:18px;font-size:.75rem;color:var(--muted)}.removals span{position:absolute;transform:translateX(-50%)}
        .defs{position:absolute}.removed{fill:url(#removed-hatch);stroke:#777;stroke-width:.5;stroke-dasharray:2 2}
        .playhead{position:absolute;top:0;bottom:18px;width:2px;background:#000;pointer-events:none;margin-left:150px}
        .k-onstage{fill:#0072B2}.k-notshown{fill:#fff;stroke:#0072B2;stroke-width:1;stroke-dasharray:3 2}.k-muted{fill:#E69F00}.k-paused{fill:#aaa}.k-speaking{fill:#009E73}.k-screenshare{fill:#CC79A7}
        .k-excluded{fill:#000;fill-opacity:.65;stroke:#000;stroke-width:.6;stroke-dasharray:2 2}.k-lost{fill:#D55E00;stroke:#000;stroke-width:.6}.k-layer{fill:#56B4E9}
        .m-pin{fill:#F0E442;stroke:#000;stroke-width:1}.m-requested{fill:#fff;stroke:#000}.m-accepted{fill:#009E73;stroke:#000}.m-declined{fill:#D55E00;stroke:#000}.m-expired{fill:#888;stroke:#000}.m-joined{fill:#009E73}.m-left{fill:#555}
        rect[tabindex]:focus,path[tabindex]:focus,circle[tabindex]:focus{outline:none;stroke:#000;stroke-width:2}
        .thumbs .strip{display:flex;gap:6px;overflow-x:auto;padding-bottom:6px}.thumbs button{border:1px solid var(--line);background:none;padding:0;cursor:pointer;font-size:.75rem}.thumbs img{display:block;width:160px;height:auto}
        .chartbox{display:flex}.yaxis{flex:0 0 150px;position:relative;height:162px;font-size:.75rem;color:var(--muted)}.yaxis span{position:absolute;right:8px;transform:translateY(-50%);white-space:nowrap}
        .plots{flex:1 1 auto;min-width:0}.chart{width:100%;height:140px;display:block;border:1px solid var(--line)}.minutes{width:100%;height:20px;display:block;border:1px solid var(--line);border-top:0}.minute{stroke:#000;stroke-width:1;vector-effect:non-scaling-stroke}
        .axis-name{font-size:.75rem;color:var(--muted);text-align:center}.rule{margin:0 0 6px}.step{fill:none;stroke:#000;stroke-width:2;vector-effect:non-scaling-stroke}
        .tier-0{fill:#eeeeee}.tier-1{fill:#cfe3f3}.tier-2{fill:#fbe3b0}.tier-3{fill:#eec6dc}.tier-4{fill:#e9b49c}.tier-x{fill:#d8d8d8}
        figure{margin:0}figcaption{font-size:.85rem;color:var(--muted)}
        table{border-collapse:collapse;margin-top:8px}th,td{text-align:left;padding:3px 12px 3px 0;border-bottom:1px solid var(--line)}caption{text-align:left;font-size:.85rem;color:var(--muted);white-space:nowrap}td{white-space:nowrap}
        .cpu .bar{width:240px}.cpu .bar span{display:block;height:10px;background:#0072B2}
        footer{margin-top:32px;font-size:.8rem;color:var(--muted)}
        @media (max-width:600px){body{padding:8px}.name,.yaxis{flex-basis:80px;width:80px}.playhead{margin-left:80px}.cpu .bar{width:80px}.thumbs img{width:112px}}
        """

    /// Seeking on click and Enter, the playhead, and "cannot be played" said only on the video's
    /// `error` event: at load a video that plays is often still without a source (network state
    /// NO_SOURCE) while the browser selects it, which is no sign of a problem.
    static let script = """
        (function(){
        var video=document.getElementById('video'),lanes=document.getElementById('lanes'),head=document.getElementById('playhead');
        var duration=lanes?+lanes.getAttribute('data-duration-ms'):0,clock=lanes?JSON.parse(lanes.getAttribute('data-clock')||'[]'):[];
        function toSession(out){for(var i=0;i<clock.length;i++){var p=clock[i];if(out<p[2]+p[1]-p[0])return p[0]+Math.max(0,out-p[2]);}return out;}
        function toOutput(s){for(var i=0;i<clock.length;i++){var p=clock[i];if(s<p[1])return s>=p[0]?s-p[0]+p[2]:p[2];}return s;}
        function seek(ms){if(!video)return;video.currentTime=ms/1000;if(video.paused){var r=video.play();if(r&&r.catch)r.catch(function(){});}}
        document.addEventListener('click',function(e){
          var t=e.target.closest?e.target.closest('[data-out-ms]'):null;
          if(t){seek(+t.getAttribute('data-out-ms'));return;}
          var svg=e.target.closest?e.target.closest('svg.track'):null;
          if(svg&&duration){var b=svg.getBoundingClientRect();seek(toOutput((e.clientX-b.left)/b.width*duration));}
        });
        document.addEventListener('keydown',function(e){
          if(e.key!=='Enter'&&e.key!==' ')return;
          var t=e.target.closest?e.target.closest('[data-out-ms]'):null;
          if(t&&t.tagName!=='BUTTON'){e.preventDefault();seek(+t.getAttribute('data-out-ms'));}
        });
        function unplayable(){if(document.getElementById('unplayable'))return;var n=document.createElement('p');n.id='unplayable';n.className='hint';n.textContent='The video cannot be played from here: open report.html in the output folder, beside composition.mp4.';video.parentNode.insertBefore(n,video.nextSibling);}
        if(video){video.addEventListener('error',unplayable);if(video.error)unplayable();}
        if(video&&head&&duration){video.addEventListener('timeupdate',function(){
          var track=lanes.querySelector('svg.track');if(!track)return;
          var w=track.getBoundingClientRect().width,s=toSession(video.currentTime*1000);
          head.hidden=false;head.style.left=(s/duration*w)+'px';
        });}
        })();
        """
}
