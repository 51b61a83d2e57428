// The document specreplay/player_html.py builds: mount the player on the payload in the page and, inside the
// app, keep the speed in the app page's shareable URL. An exported file (payload.standalone) never rewrites
// the page that embeds it. player_html inlines this after player.js, without the import line.
import { mount } from "./player.js";

const data = JSON.parse(document.getElementById("specreplay-payload").textContent);
const root = document.getElementById("player");
window.specreplayPlayer = mount(root, data);
if (!data.standalone) root.addEventListener("specreplay:speed", (e) => mirrorSpeed(e.detail.speed));
if (data.autoplay) window.specreplayPlayer.play(); // the start page's hero plays on its own
fitFrame();
window.addEventListener("resize", fitFrame);

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

/** On a phone the panes stack (player.css), taller than the iframe the page gave: grow the frame to fit, so the
 * page scrolls instead of a small box inside it. Wider screens keep the page's height. */
function fitFrame() {
  let frame = null;
  try {
    frame = window.frameElement;
  } catch {
    return; // a cross-origin parent: its frame is its own business
  }
  if (!frame || window.innerWidth > 560) return;
  const needed = Math.ceil(document.documentElement.scrollHeight);
  if (Math.abs(frame.clientHeight - needed) > 2) frame.style.height = `${needed}px`;
}
