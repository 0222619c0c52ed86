// The lobby: create a match, take a seat, share a link to a seat or to watch.
import { credentials, lobby } from "./api.js";
import { h, notice } from "./dom.js";

const BOTS = [["", "a person"], ["greedy", "greedy bot"], ["random", "random bot"]];
const THEMES = [["steam-noir", "Steam Noir: Revolution"], ["dark-empire", "Dark Empire: Revolution"]];

const themeName = (theme) => (THEMES.find(([value]) => value === theme) || [theme, theme])[1];

export const links = {
  seat: (id, seat) => new URL(`?match=${encodeURIComponent(id)}&seat=${seat}`, location.href).href,
  watch: (id) => new URL(`?match=${encodeURIComponent(id)}&watch`, location.href).href,
};

const playerName = () => localStorage.getItem("darkempire:name") || "";

async function sit(id, seat, name) {
  localStorage.setItem("darkempire:name", name);
  const answer = await lobby.join(id, seat, name);
  credentials.set(id, answer.seat, answer.credential);
  location.href = links.seat(id, answer.seat);
}

// Enter in the field sits at `seat` (the seat whose link was opened), if it is free.
function nameField(id, seat) {
  const enter = seat === null ? null : (event) => {
    if (event.key === "Enter") sit(id, seat, currentName()).catch((e) => notice(e.message));
  };
  return h("label", {}, "Your name ", h("input", { id: "name", name: "name", maxlength: "40", value: playerName(), autocomplete: "nickname", onkeydown: enter }));
}

const currentName = () => document.getElementById("name").value.trim();

const free = (summary, seat) => !summary.over && summary.seats.some((s) => s.seat === seat && !s.bot && !s.held);

// What the link to a seat says to the person who opens it in a browser without that seat's credential.
function invitation(summary, seat) {
  const entry = summary.seats.find((s) => s.seat === seat);
  if (!entry) return null;
  if (summary.over) return h("p", { id: "invitation" }, "This match is over: watch it to see how it ended.");
  if (entry.bot || entry.held) return h("p", { id: "invitation" }, `Seat ${seat} is ${entry.bot ? "a bot's" : "taken"}: sit at a free seat below, or watch.`);
  return h("p", { id: "invitation" }, `This is the link to seat ${seat}: give your name and press Enter (or the seat's Sit button) to sit there.`);
}

// One match's seats: sit at a free human seat, copy the link to each seat and to watch. `invited`: the seat
// whose link was opened, if any.
export function matchPanel(summary, invited = null) {
  const rows = summary.seats.map((seat) => h("li", { "data-seat": seat.seat },
    `Seat ${seat.seat}: `,
    seat.bot ? `${seat.bot} bot` : seat.held ? `taken${seat.name ? ` by ${seat.name}` : ""}` : "free",
    !seat.bot && !seat.held ? [" ", h("button", { type: "button", class: "sit", "data-seat": seat.seat, onclick: () => sit(summary.match_id, seat.seat, currentName()).catch((e) => notice(e.message)) }, `Sit at seat ${seat.seat}`)] : null,
    !seat.bot ? h("div", { class: "links" }, h("label", {}, `Link to seat ${seat.seat} `, h("input", { readonly: true, value: links.seat(summary.match_id, seat.seat), "data-link": `seat-${seat.seat}`, onfocus: (e) => e.target.select() }))) : null,
  ));
  return h("section", { class: "panel", id: "match", "data-match": summary.match_id },
    h("h2", {}, `Match ${summary.match_id}: ${summary.players} players, ${themeName(summary.theme)}${summary.over ? " (over)" : ""}`),
    invited === null ? null : invitation(summary, invited),
    nameField(summary.match_id, free(summary, invited) ? invited : null),
    h("ul", {}, rows),
    h("div", { class: "links" }, h("label", {}, "Link to watch ", h("input", { readonly: true, value: links.watch(summary.match_id), "data-link": "watch", onfocus: (e) => e.target.select() }))),
    h("p", {}, h("a", { href: links.watch(summary.match_id), id: "watch" }, "Watch this match")));
}

function seatsFields(count) {
  return Array.from({ length: count }, (_, seat) => h("label", {}, `Seat ${seat} `, h("select", { name: `seat-${seat}`, "data-seat": seat },
    BOTS.map(([value, label]) => h("option", { value, selected: (seat === 0 ? value === "" : value === "greedy") || null }, label)))));
}

export async function showLobby(root) {
  const seats = h("fieldset", { id: "seats" }, h("legend", {}, "Who plays each seat"), seatsFields(3));
  const players = h("select", { name: "players", id: "players", onchange: () => seats.replaceChildren(h("legend", {}, "Who plays each seat"), ...seatsFields(Number(players.value))) },
    [3, 4, 5].map((count) => h("option", { value: count }, String(count))));
  const theme = h("select", { name: "theme", id: "theme" }, THEMES.map(([value, label]) => h("option", { value }, label)));
  // Optional: a seat that lets this many seconds pass has its choice made by a greedy bot, and everyone is told.
  const limit = h("input", { type: "number", name: "time_limit", id: "time-limit", min: "1", max: "86400", step: "1", placeholder: "none" });
  const created = h("div", { id: "created" });
  const form = h("form", { id: "create", onsubmit: async (event) => {
    event.preventDefault();
    const bots = [...seats.querySelectorAll("select")].map((select) => select.value || null);
    try {
      const timeLimit = limit.value === "" ? null : Number(limit.value);
      const summary = await lobby.create({ players: Number(players.value), theme: theme.value, bots, time_limit: timeLimit });
      created.replaceChildren(matchPanel(summary));
      const sitButton = created.querySelector("button.sit");
      if (sitButton) sitButton.focus();
    } catch (error) { notice(error.message); }
  } }, h("label", {}, "Players ", players), h("label", {}, "Theme ", theme), seats,
    h("label", {}, "Seconds per decision ", limit, " (empty: no limit; when time runs out a greedy bot chooses for the seat)"),
    h("button", { type: "submit", id: "create-match" }, "Create the match"));
  const open = h("section", { class: "panel", id: "open" }, h("h2", {}, "Open matches"), h("p", {}, "Looking…"));
  root.replaceChildren(h("div", { class: "lobby" }, h("section", { class: "panel" }, h("h2", {}, "New match"), form, created), open));
  try {
    const matches = await lobby.open();
    open.replaceChildren(h("h2", {}, "Open matches"), matches.length ? h("ul", {}, matches.map((m) => h("li", {},
      h("a", { href: `?match=${encodeURIComponent(m.match_id)}` }, `${m.match_id}: ${m.players} players, ${themeName(m.theme)}, ${m.seats.filter((s) => !s.bot && !s.held).length} free`)))) : h("p", {}, "None yet: create one."));
  } catch (error) { notice(error.message); }
}
