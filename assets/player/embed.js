// The document specreplay/player_html.py builds: mount the player on the payload in the page and, inside the
// app, keep the speed in the app page's shareable URL: the one writer of ?speed= (the page only reads it, through
// url_state's one check, as a click in this frame never reaches the page). An exported file (payload.standalone) never rewrites
// the page that embeds it. player_html inlines this after player.js, without the import line.
import { mount } from "./player.js";

const data = JSON.parse(document.getElementById("specreplay-payload").textContent);
const root = document.getElementById("player");
window.specreplayPlayer = mount(root, data);
if (!data.standalone) root.addEventListener("specreplay:speed", (e) => mirrorSpeed(e.detail.speed));
if (data.autoplay) window.specreplayPlayer.play(); // the start page's hero plays on its own

/** Mirror the speed into the parent page's query (the app's page around this iframe). */
function mirrorSpeed(s) {
  if (window.parent === window) return;
  try {
    const url = new URL(window.parent.location.href);
    if (url.searchParams.get("speed") === String(s)) return;
    url.searchParams.set("speed", String(s));
    window.parent.history.replaceState(window.parent.history.state, "", url);
  } catch {
    // a cross-origin parent (an embed elsewhere) keeps its own URL
  }
}
