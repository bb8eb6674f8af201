// Headless publisher for scripts/janus-record.
// Query: server, room, display, t0 (epoch ms, the script's T0),
//        unpub, repub, leave (seconds after t0, optional), leavemode (leave|destroy)
// The page joins and publishes as soon as it is loaded (the script launches the
// browser at the join time). The later steps run in order, each at its planned
// time but never before the previous step has completed plus a minimum gap
// (a browser on a busy 2-core machine may take a few seconds to start), so
// the recording always holds every phase; scenario.json reports actual times.
"use strict";
const q = new URLSearchParams(location.search);
const server = q.get("server");
const room = parseInt(q.get("room"), 10);
const display = q.get("display");
const t0 = parseInt(q.get("t0"), 10);
const at = (k) => (q.has(k) && q.get(k) !== "" ? parseFloat(q.get(k)) : null);
const plan = { unpub: at("unpub"), repub: at("repub"), leave: at("leave") };
const leavemode = q.get("leavemode") || "leave";

let janus = null, vr = null, myId = null, publishing = false;
const MIN_GAP_MS = { unpub: 2500, repub: 1500, leave: 2500 };
const steps = [];
if (plan.unpub !== null) steps.push({ name: "unpub", at: plan.unpub, fn: () => unpublish() });
if (plan.repub !== null) steps.push({ name: "repub", at: plan.repub, fn: () => publish() });
if (plan.leave !== null) steps.push({ name: "leave", at: plan.leave, fn: () => leave() });

// called when the previous phase is complete (published / unpublished)
function nextStep() {
  const step = steps.shift();
  if (!step) return;
  const planned = t0 + step.at * 1000;
  const when = Math.max(planned, Date.now() + MIN_GAP_MS[step.name]);
  setTimeout(() => {
    log("step", { name: step.name, planned_ms: planned, late_ms: Date.now() - planned });
    try { step.fn(); } catch (e) { log("error", step.name + ": " + e); }
  }, when - Date.now());
}

function log(what, detail) {
  const line = { display, what, detail: detail === undefined ? null : detail, page_ms: Date.now() };
  document.getElementById("log").textContent += JSON.stringify(line) + "\n";
  try {
    fetch("/log", { method: "POST", headers: { "Content-Type": "application/json" },
                    body: JSON.stringify(line), keepalive: true });
  } catch (e) { /* nothing to do */ }
}

function publish() {
  vr.createOffer({
    tracks: [
      // no echo cancellation / noise suppression / AGC: Chromium's noise suppressor
      // otherwise fades the constant test tone to silence within ~2 s
      { type: "audio", capture: { echoCancellation: false, noiseSuppression: false, autoGainControl: false }, recv: false },
      { type: "video", capture: true, recv: false, simulcast: false },
    ],
    success: (jsep) => {
      log("publish-sent");
      vr.send({ message: { request: "publish", audio: true, video: true, display }, jsep });
    },
    error: (err) => log("error", "createOffer: " + JSON.stringify(err)),
  });
}

function unpublish() {
  log("unpublish-sent");
  vr.send({ message: { request: "unpublish" } });
}

function leave() {
  log("leave-sent", leavemode);
  const done = () => janus.destroy({ success: () => log("destroyed"), error: (e) => log("error", "destroy: " + e) });
  if (leavemode === "leave") {
    vr.send({ message: { request: "leave" }, success: () => setTimeout(done, 300), error: done });
  } else {
    done();
  }
}

window.onerror = (msg, src, line) => log("error", msg + " @" + src + ":" + line);
log("loaded", { href: location.href, ua: navigator.userAgent });

Janus.init({
  debug: false,
  callback: () => {
    if (!Janus.isWebrtcSupported()) { log("error", "no WebRTC"); return; }
    janus = new Janus({
      server,
      iceServers: [],
      success: () => {
        log("session", janus.getSessionId());
        janus.attach({
          plugin: "janus.plugin.videoroom",
          opaqueId: "stagemix-harness-" + display,
          success: (h) => {
            vr = h;
            log("attached", vr.getId());
            vr.send({ message: { request: "join", room, ptype: "publisher", display } });
          },
          error: (e) => log("error", "attach: " + e),
          iceState: (s) => log("ice", s),
          webrtcState: (on, reason) => {
            log("webrtc", { up: on, reason: reason || null });
            if (on) nextStep();
          },
          mediaState: (medium, on, mid) => log("media", { medium, receiving: on, mid }),
          slowLink: (uplink, lost, mid) => log("slowlink", { uplink, lost, mid }),
          onmessage: (msg, jsep) => {
            const ev = msg["videoroom"];
            if (ev === "joined") {
              myId = msg["id"];
              log("joined", { id: myId, private_id: msg["private_id"] });
              publish();
            } else if (ev === "event") {
              if (msg["configured"] === "ok") { publishing = true; log("configured"); }
              if (msg["unpublished"] === "ok") { publishing = false; log("unpublished"); nextStep(); }
              if (msg["leaving"] === "ok") log("left");
              if (msg["error"]) log("error", msg["error_code"] + " " + msg["error"]);
            }
            if (jsep) {
              vr.handleRemoteJsep({ jsep });
              const vcodec = (jsep.sdp.match(/a=rtpmap:(\d+) (VP8|VP9|H264|AV1)\/90000/i) || []).slice(1);
              log("answer", { video_codec: msg["video_codec"] || null, audio_codec: msg["audio_codec"] || null, first_video_rtpmap: vcodec });
            }
          },
          onlocaltrack: (track, on) => log("localtrack", { kind: track.kind, on }),
          oncleanup: () => log("cleanup"),
        });
      },
      error: (e) => log("error", "session: " + e),
      destroyed: () => log("session-destroyed"),
    });
  },
});
