// The table: what one seat (or a spectator) sees of a match, drawn again from the newest prompt after every
// message. The page keeps only what the server sent this connection: the seat's prompts and events.
import { GameSocket, credentials, lobby } from "./api.js";
import { h, notice } from "./dom.js";
import { matching, selectableCards, toggle } from "./choices.js";
import { describe, seatName, strengthSums, verdictWords, weekOutcome } from "./words.js";
import { PHASES } from "./rules.js";
import { showHelp } from "./help.js";
import { Names } from "./names.js";

const SHOWN_CHOICES = 12; // more would be a wall of buttons: picking a card narrows the list
const MOVE_KEYS = /^(card-\d+|choice-\d+|clear|move)$/; // the data-key of what a player moves with

export class Table {
  constructor(root, cardTable, matchId, seat, credential) {
    this.root = root;
    this.cardTable = cardTable;
    this.matchId = matchId;
    this.me = seat; // null: watching
    this.prompt = null;
    this.log = []; // {seq, event}: put in words when drawn, in the theme of the match
    this.selected = new Set();
    this.sent = false;
    this.fresh = new Set(); // cards revealed by the latest message, drawn highlighted
    this.seatNames = [];
    this.socket = new GameSocket(matchId, seat, credential, (m) => this.receive(m), (e) => this.closed(e));
  }

  async start() {
    await this.refreshSeats();
    this.socket.open();
  }

  async refreshSeats() {
    try {
      const summary = await lobby.summary(this.matchId);
      this.seatNames = summary.seats.map((s) => s.name || (s.bot ? `${s.bot} bot` : null));
      this.players = summary.players;
    } catch (error) {
      notice(error.message);
    }
  }

  receive(message) {
    switch (message.type) {
      case "welcome":
        if (this.lost) { notice(""); this.lost = false; } // a refusal's message stays until the next choice
        if (this.prompt === null) this.log = [];
        for (const step of message.missed) this.record(step.seq, step.events);
        if (message.missed.length > 1) this.fresh = new Set(); // a page catching up highlights nothing old
        this.show(message.prompt);
        break;
      case "update":
        this.record(message.seq, message.events);
        if (this.seatNames.some((name) => name === null)) this.refreshSeats().then(() => this.render());
        this.show(message.prompt);
        break;
      case "ack":
        break;
      case "timeout":
        this.log.push({ seq: message.seq, event: { kind: "timeout", seat: message.seat } });
        this.render();
        break;
      case "error": {
        // A refused hello (no such match, a credential the server no longer takes, too many connections) or a
        // lost seat: the same hello would be refused again, so the page stops instead of reconnecting.
        if (!this.socket.greeted || message.code === "seat-lost") { this.refused(message); break; }
        const rule = message.rule ? ` (rule ${message.rule})` : "";
        // The page sends only actions its prompt listed, so a move the rules refuse was legal when shown: the
        // game had moved on (a stale page). The server's own words follow, for the curious.
        const lead = message.code === "illegal-action"
          ? "Your choice came too late: the game had already moved on, so it was not taken"
          : "That choice was refused";
        notice(`${lead} (the server says: ${message.message}${rule}). The table below is brought up to date; choose again.`);
        this.sent = false;
        // A refused move changed nothing, but this page may be behind: ask for what it missed.
        this.socket.reconnect();
        break;
      }
      default:
        break;
    }
  }

  refused(message) {
    this.socket.close();
    this.stopped = true;
    let text = `The server refused this page's connection: ${message.message}. Reload the page to try again.`;
    if (message.code === "unknown-match") { text = "This match does not exist."; this.missing = true; }
    else if (message.code === "bad-credential" || message.code === "seat-lost") {
      credentials.forget(this.matchId, this.me); // the seat's link now leads to the match's seats
      text = `This browser can no longer play seat ${this.me}: ${message.message}. Take a seat again from the match's page.`;
    }
    notice(text);
    if (this.prompt) this.render();
    else this.root.replaceChildren(this.stoppedLinks());
  }

  stoppedLinks() {
    const seats = this.missing ? null : [h("a", { href: `?match=${encodeURIComponent(this.matchId)}` }, "The match's seats"), " · "];
    return h("p", { id: "stopped" }, seats, h("a", { href: "./" }, "The lobby"));
  }

  closed(event) {
    if (event.code === 4404) { notice("This match does not exist."); return; }
    notice("The connection was lost; reconnecting…");
    this.lost = true;
    setTimeout(() => { if (!this.stopped) this.socket.reconnect(); }, 1000);
  }

  record(seq, events) {
    this.fresh = new Set();
    for (const event of events) {
      if (event.kind === "plays-revealed") for (const play of event.plays) this.fresh.add(play.action.card);
      this.log.push({ seq, event });
    }
  }

  names() {
    const theme = this.prompt ? this.prompt.theme : "STEAM_NOIR";
    if (!this.namesCache || this.namesCache.theme !== theme) this.namesCache = new Names(this.cardTable, theme);
    return this.namesCache;
  }

  show(prompt) {
    const changed = !this.prompt || JSON.stringify(this.prompt.legal_actions) !== JSON.stringify(prompt.legal_actions);
    this.prompt = prompt;
    if (changed) { this.selected = new Set(); this.sent = false; }
    this.render();
  }

  act(index) {
    if (this.sent || this.stopped) return;
    this.sent = true;
    notice("");
    this.socket.act(this.prompt.legal_actions[index]);
    this.render();
  }

  pick(card) {
    this.selected = toggle(this.prompt.legal_actions, this.selected, card);
    this.render();
  }

  render() {
    if (!this.prompt) return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const view = this.prompt.view;
    const n = this.names();
    // The game's name is the theme's (rule 1.1): Steam Noir's match is not called Dark Empire.
    const title = this.prompt.theme === "DARK_EMPIRE" ? "Dark Empire: Revolution" : "Steam Noir: Revolution";
    document.querySelector(".home").textContent = title;
    document.title = title;
    this.root.replaceChildren(h("div", { class: "table-grid", "data-phase": view.phase },
      h("div", {}, this.status(view, n), this.revealed(view, n), this.seats(view, n), this.strengths(view, n), this.track(view, n)),
      h("div", {}, this.verdict(view, n), this.own(view, n), this.choices(view, n), this.events()),
    ));
    if (focused) {
      const again = focused === "move" ? null : this.root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus();
      // A keyboard player whose card or choice is gone (sent, played, or a new step) stays in the move panel:
      // on the first card or choice open to it, or else on the panel's heading, which says what it waits for.
      else if (MOVE_KEYS.test(focused)) this.firstMove().focus();
    }
  }

  firstMove() {
    return this.root.querySelector("#hand button.card:not([disabled]), #table-picks button.card, #choices button.choice")
      || this.root.querySelector("#choices h3");
  }

  seat(s) { return seatName(s, this.me, this.seatNames); }

  helpButton(key, label) {
    return h("button", { type: "button", class: "qhelp", "data-key": `help-${key}`, onclick: () => showHelp(key), "aria-label": `Rules help: ${label}` }, "?");
  }

  status(view, n) {
    const phase = PHASES[view.phase];
    const theme = this.prompt.theme === "DARK_EMPIRE" ? "Dark Empire" : "Steam Noir";
    return h("section", { class: "panel status", id: "status" },
      h("h2", {}, view.month ? `Month ${view.month}, week ${view.week || "–"}` : "Setup"),
      h("span", { id: "phase" }, phase ? phase.title : view.phase, this.helpButton(`phase-${view.phase}`, phase ? phase.title : view.phase)),
      h("span", {}, `Theme: ${theme}`),
      h("span", {}, `Draw pile ${view.draw_pile_size}, discards ${view.discard_pile_size}, revolution pile ${view.revolution_pile_size}, emperor pile ${view.emperor_pile_size}`),
      h("span", {}, this.me === null ? "You are watching." : `You are seat ${this.me}.`),
    );
  }

  revealed(view, n) {
    const table = view.table;
    const addOn = table ? table.add_on : view.add_on;
    return h("section", { class: "panel", id: "revealed" },
      h("h3", {}, "This week's cards"),
      h("div", { class: "revealed" },
        table ? h("span", { class: "card rev" }, n.revolutionCard(table.revolution_card), this.helpButton("card-REVOLUTION_CARD", "revolution card")) : h("span", {}, "No week under way."),
        table ? h("span", { class: "card emp" }, n.emperorCard(table.emperor_card), this.helpButton("card-EMPEROR_CARD", "emperor card")) : null,
        addOn ? h("span", { class: "card emp" }, n.addOn(addOn), this.helpButton("card-ADD_ON_CARD", "add-on card")) : null,
      ));
  }

  playedCard(play, n) {
    const reinforcements = play.reinforcements.map((r) => h("span", { class: "rf", "data-card": r.card }, ` +3 (${this.seat(r.seat)})`));
    const value = n.cardValue(play.card) + 3 * play.reinforcements.length;
    return h("span", { class: `card ${play.side === "REVOLUTION" ? "rev" : "emp"}${this.fresh.has(play.card) ? " new" : ""}`, "data-card": play.card, title: `step ${play.step}` },
      `${n.card(play.card)} = ${value}`, reinforcements);
  }

  seats(view, n) {
    const plays = view.table ? view.table.plays : [];
    const rows = [];
    for (let s = 0; s < view.players; s += 1) {
      const mine = plays.filter((p) => p.seat === s);
      const state = view.awaited.includes(s) ? (view.chosen.includes(s) ? "has chosen" : "choosing…") : (view.chosen.includes(s) ? "has chosen" : "");
      rows.push(h("tr", { "data-seat": s },
        h("th", { scope: "row" }, this.seat(s)),
        // data-label: the column's name, which a phone's narrow layout writes before each cell (style.css).
        h("td", { class: "side-rev", "data-label": "Revolution side" }, mine.filter((p) => p.side === "REVOLUTION").map((p) => this.playedCard(p, n))),
        h("td", { class: "side-emp", "data-label": "Emperor side" }, mine.filter((p) => p.side === "EMPEROR").map((p) => this.playedCard(p, n))),
        h("td", { "data-label": "Cards" }, String(view.hand_sizes[s])),
        h("td", { "data-label": "Tokens month / banked" }, `${view.month_tokens[s]} / ${view.banked_tokens[s]}`),
        h("td", { "data-label": "Support used" }, view.support_used[s].map((f) => n.faction(f)).join(", ") || "–"),
        h("td", { class: "state" }, state),
      ));
    }
    return h("section", { class: "panel", id: "seats" },
      h("h3", {}, "The table", this.helpButton("phase-PLAY_1", "plays")),
      h("div", { style: "overflow-x:auto" }, h("table", { class: "seats" },
        h("thead", {}, h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Revolution side"), h("th", {}, "Emperor side"), h("th", {}, "Cards"), h("th", {}, "Tokens month / banked", this.helpButton("scoring-month", "tokens and monthly scoring")), h("th", {}, "Support used", this.helpButton("card-SUPPORT_CARD", "support cards")), h("th", {}, ""))),
        h("tbody", {}, rows))));
  }

  strengths(view, n) {
    const record = view.history.length ? view.history[view.history.length - 1] : null;
    const score = view.week_score || (record && record.score);
    if (!score) return h("section", { class: "panel", id: "strengths" }, h("h3", {}, "Strengths"), h("p", {}, "Counted when the third step is revealed (rules 5.1, 5.2)."));
    // The week's record keeps its table as scored, so the sums can be shown after cards left the table.
    const sums = record && JSON.stringify(record.score) === JSON.stringify(score) ? strengthSums(record.table, score, n) : null;
    const when = view.week_score ? "this week" : "last week";
    return h("section", { class: "panel", id: "strengths" },
      h("h3", {}, `Strengths ${when}${record ? ` (month ${record.month}, week ${record.week})` : ""}`, this.helpButton("scoring-week", "weekly scoring")),
      sums ? h("ul", { class: "sums", id: "sums" }, sums.map((line) => h("li", {}, line))) : [
        h("p", {}, n.perFaction(score.strengths)),
        h("p", {}, score.emperor_strength === null ? "No emperor card." : `Emperor ${score.emperor_strength}.`)],
      h("p", {}, `Strongest: ${score.strongest.map((f) => n.faction(f)).join(", ")}.`),
      h("div", { id: "outcome" }, weekOutcome(score, n, (s) => this.seat(s)).map((line) => h("p", {}, line))));
  }

  track(view, n) {
    const points = new Map(n.factionOrder.map((f) => [f, 0]));
    for (const placed of view.score_track.faction_cards) points.set(n.cardFaction(placed.card), points.get(n.cardFaction(placed.card)) + n.cardValue(placed.card));
    const emperor = view.score_track.emperor_cards.reduce((sum, placed) => sum + n.emperorValue(placed.card), 0);
    const row = (label, value) => {
      const lap = value > 40;
      return [h("span", {}, label),
        h("span", { class: "bar40", role: "img", "aria-label": `${label}: ${value} points` },
          h("span", { style: `width:${(Math.min(value, 40) / 40) * 100}%` }),
          lap ? h("span", { class: "lap", style: `width:${(Math.min(value - 40, 40) / 40) * 100}%` }) : null),
        h("span", { class: "points" }, lap ? `${value} (40+)` : String(value))];
    };
    return h("section", { class: "panel", id: "track" },
      h("h3", {}, "Score track", this.helpButton("scoring-track", "score track")),
      h("div", { class: "track" }, n.factionOrder.map((f) => row(n.faction(f), points.get(f))), row("Emperor", emperor)));
  }

  verdict(view, n) {
    if (!view.verdict) return null;
    return h("section", { class: "panel verdict", id: "verdict", "aria-live": "polite" },
      h("h2", {}, "The verdict", this.helpButton("scoring-final", "final scoring")),
      verdictWords(view.verdict, n, (s) => this.seat(s)).map((line) => h("p", {}, line)));
  }

  own(view, n) {
    if (this.me === null) return h("section", { class: "panel", id: "own" }, h("p", {}, "Spectators see only what is public."));
    const selectable = selectableCards(this.prompt.legal_actions);
    const hand = [...view.hand].sort((a, b) => a - b).map((card) => h("button", {
      type: "button", class: "card", "data-card": card, "data-key": `card-${card}`,
      "aria-pressed": this.selected.has(card) ? "true" : "false",
      disabled: !selectable.has(card) || this.sent, onclick: () => this.pick(card),
    }, n.card(card)));
    return h("section", { class: "panel", id: "own" },
      h("h3", {}, "Your hand", this.helpButton("card-FACTION_CARD", "faction cards")),
      // The secrets above the hand, so that from the hand's last card Tab goes straight on to the choices.
      h("p", {}, "Victor faction: ", h("span", { class: "secret", id: "victor" }, n.faction(view.victor)), this.helpButton("card-VICTOR_CARD", "victor card"),
        " Support this month: ", h("span", { class: "secret", id: "support" }, view.support ? n.faction(view.support) : "not chosen"), this.helpButton("card-SUPPORT_CARD", "support card")),
      h("div", { class: "hand", id: "hand" }, hand.length ? hand : "No cards."));
  }

  choices(view, n) {
    const actions = this.prompt.legal_actions;
    const section = (...children) => h("section", { class: "panel", id: "choices", "aria-live": "polite" }, h("h3", { tabindex: "-1", "data-key": "move" }, this.me === null ? "The table's move" : "Your move"), ...children);
    if (view.verdict) return section(h("p", {}, "The game is over."));
    if (this.stopped) return section(h("p", {}, "This page is no longer connected to the match."), this.stoppedLinks());
    if (this.me === null || !actions.length) {
      const waiting = view.awaited.filter((s) => !view.chosen.includes(s)).map((s) => this.seat(s));
      return section(h("p", { class: "waiting", id: "waiting" }, waiting.length ? `Waiting for ${waiting.join(", ")} to choose…` : "Waiting…"));
    }
    if (this.sent) return section(h("p", { class: "waiting", id: "waiting" }, "Your choice is sent; waiting for the others…"));
    const hand = new Set(view.hand);
    const offTable = [...selectableCards(actions)].filter((card) => !hand.has(card)).sort((a, b) => a - b);
    const fits = matching(actions, this.selected);
    const phase = PHASES[view.phase];
    return section(
      h("p", {}, phase ? phase.text : "", this.helpButton(`phase-${view.phase}`, phase ? phase.title : view.phase)),
      offTable.length ? h("div", { class: "hand", id: "table-picks" }, "Cards on the table you may pick: ", offTable.map((card) => h("button", {
        type: "button", class: "card", "data-card": card, "data-key": `card-${card}`,
        "aria-pressed": this.selected.has(card) ? "true" : "false", onclick: () => this.pick(card),
      }, n.card(card)))) : null,
      this.selected.size ? h("p", {}, `Picked: ${[...this.selected].map((c) => n.card(c)).join(", ")}. `,
        h("button", { type: "button", "data-key": "clear", onclick: () => { this.selected = new Set(); this.render(); } }, "Clear")) : h("p", {}, "Pick a card to see what you may do with it, or choose below."),
      h("div", { class: "choices" }, fits.slice(0, SHOWN_CHOICES).map((index) => h("button", {
        type: "button", class: "choice", "data-key": `choice-${index}`, "data-index": index, onclick: () => this.act(index),
      }, this.prompt.labels[index]))),
      fits.length > SHOWN_CHOICES ? h("p", {}, `…and ${fits.length - SHOWN_CHOICES} more: pick cards to narrow the list.`) : null,
    );
  }

  events() {
    const n = this.names();
    const items = this.log.slice().reverse().map(({ event }) => {
      const line = describe(event, n, this.me, this.seatNames);
      return h("li", { class: line.scoring ? "scoring" : "", "data-kind": event.kind, "data-cards": line.cards.join(" ") }, line.text);
    });
    return h("section", { class: "panel", id: "log" }, h("h3", {}, "What happened", this.helpButton("scoring-week", "scoring")), h("ol", { class: "log", reversed: true }, items));
  }
}
