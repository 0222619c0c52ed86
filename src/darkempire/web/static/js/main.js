// The page's entry point: the address says what to show.
//   (nothing)             the lobby
//   ?match=ID             one match's seats and links
//   ?match=ID&seat=N      play seat N (with this browser's credential for it; otherwise sit there first)
//   ?match=ID&watch       watch as a spectator
import { credentials, lobby } from "./api.js";
import { h, notice } from "./dom.js";
import { installHelp } from "./help.js";
import { matchPanel, showLobby } from "./lobby.js";
import { Table } from "./table.js";

async function main() {
  installHelp();
  const root = document.getElementById("app");
  const params = new URLSearchParams(location.search);
  const matchId = params.get("match");
  try {
    if (!matchId) { await showLobby(root); return; }
    const cardTable = await lobby.cardTable();
    if (params.has("watch")) { await new Table(root, cardTable, matchId, null, null).start(); return; }
    if (params.has("seat")) {
      const seat = Number(params.get("seat"));
      const credential = credentials.get(matchId, seat);
      if (credential) { await new Table(root, cardTable, matchId, seat, credential).start(); return; }
    }
    const summary = await lobby.summary(matchId);
    const invited = params.has("seat") ? Number(params.get("seat")) : null;
    root.replaceChildren(matchPanel(summary, invited));
    // A free seat's link opened here: the name field has the focus, and Enter in it sits at that seat.
    if (root.querySelector(`button.sit[data-seat="${invited}"]`)) root.querySelector("#name").focus();
  } catch (error) {
    notice(error.message);
    root.replaceChildren(h("p", {}, h("a", { href: "./" }, "Back to the lobby")));
  }
}

main();
