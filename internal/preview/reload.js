// Reloads the page when `logoindex serve -watch` has rebuilt the site. The
// preview server adds this script to the pages it serves, with the version
// of the tree the page was read from (data-version); a build never writes
// it. The server sends the version of the tree when the stream opens and
// after every rebuild, so a page that was away (a reconnect, a restarted
// server), or whose rebuild ended before the stream opened, reloads too.
(() => {
  "use strict";
  if (!window.EventSource || !document.currentScript) return;
  const events = new URL("events", document.currentScript.src);
  let version = document.currentScript.dataset.version || null;
  new EventSource(events).addEventListener("version", (event) => {
    if (version === null) version = event.data;
    else if (event.data !== version) location.reload();
  });
})();
