// Minimal stand-in for webrtc-adapter, written for scripts/janus-record.
// janus.js 1.1.x only reads adapter.browserDetails (browser/version); the
// harness targets one known browser (headless Chromium), so no shims are needed.
(function () {
  var m = navigator.userAgent.match(/Chrom(?:e|ium)\/(\d+)/);
  window.adapter = { browserDetails: { browser: "chrome", version: m ? parseInt(m[1], 10) : null } };
})();
