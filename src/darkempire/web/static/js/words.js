// The event log in words. Each event of the wire format (docs/protocol.md, "event" messages) becomes one
// line; the scoring events say the numbers that produced them, with their rule numbers.
import { VERDICTS } from "./rules.js";

const PHASE_WORDS = {
  DRAFT_PASS: "the draft pass", DRAFT_DISCARD: "the draft discard", CHOOSE_SUPPORT: "a support card",
  PLAY_1: "play step 1", PLAY_2: "play step 2", PLAY_3: "play step 3", PLACEMENT: "a placement",
  REORGANIZE: "the re-organize",
};

export function seatName(seat, me, names = []) {
  if (seat === me) return "you";
  const name = names[seat];
  return name ? `seat ${seat} (${name})` : `seat ${seat}`;
}

export function playWords(play, n) {
  const action = play.action;
  if (action.kind === "play-card") return `${n.card(action.card)} to ${n.side(action.side)}`;
  return `${n.card(action.card)} onto ${n.card(action.target)}`;
}

export function verdictWords(verdict, n, seats) {
  const reason = VERDICTS[verdict.reason];
  const winners = verdict.winners.map((seat) => seats(seat)).join(" and ");
  const factions = verdict.winning_factions.map((f) => n.faction(f)).join(" and ");
  const lines = [
    `${reason.text} (rule ${reason.rule})`,
    `Winner: ${winners} with ${factions}.`,
    `Final totals: ${n.perFaction(verdict.totals)} (score-track cards ${n.perFaction(verdict.card_points)}, plus the banked tokens of each victor card's holder; rule 8.1).`,
    `The emperor's total: ${verdict.emperor_total}. The highest faction total: ${Math.max(...verdict.totals)} (rules 8.2, 8.3).`,
    `Victor cards: ${verdict.victors.map((f, seat) => `${seats(seat)} ${n.faction(f)}`).join(", ")}.`,
  ];
  if (verdict.too_powerful) {
    const i = n.factionOrder.indexOf(verdict.too_powerful);
    const next = Math.max(...verdict.totals.filter((_, j) => j !== i));
    lines.push(`Too powerful and out: ${n.faction(verdict.too_powerful)}, ${verdict.totals[i]} against the next ${next}, ${verdict.totals[i] - next} ahead (rule 8.4).`);
  }
  return lines;
}

// A week's strengths as sums of the cards that made them (rules 5.1, 5.2), written as the spec's examples
// write them: "Calendrical Order: 3 (revolution card) + (8 + 3) + 8 + (6 + 3) − 6 = 25". `table` is the week's
// table as scored (a week record's), `score` its scoring; null if the sums do not give the scored strengths.
export function strengthSums(table, score, n) {
  const term = (play) => (play.reinforcements.length
    ? `(${[n.cardValue(play.card), ...play.reinforcements.map(() => 3)].join(" + ")})` : String(n.cardValue(play.card)));
  const worth = (play) => n.cardValue(play.card) + 3 * play.reinforcements.length;
  const sum = (terms) => terms.map(([sign, text], i) => (i === 0 ? (sign < 0 ? `−${text}` : text) : `${sign < 0 ? " − " : " + "}${text}`)).join("");
  const lines = [];
  let fits = true;
  n.factionOrder.forEach((faction, i) => {
    const terms = [];
    let total = 0;
    if (table.revolution_card === faction) { terms.push([1, "3 (revolution card)"]); total += 3; }
    for (const play of table.plays.filter((p) => n.cardFaction(p.card) === faction)) {
      const sign = play.side === "REVOLUTION" ? 1 : -1;
      terms.push([sign, sign < 0 ? `${term(play)} (traitor)` : term(play)]);
      total += sign * worth(play);
    }
    fits = fits && total === score.strengths[i];
    const alone = terms.length === 1 && terms[0][0] > 0 && terms[0][1] === String(total); // "Workers: 5", not "5 = 5"
    lines.push(`${n.faction(faction)}: ${terms.length && !alone ? `${sum(terms)} = ${total}` : total}`);
  });
  if (table.emperor_card === null || table.emperor_card === undefined) {
    fits = fits && score.emperor_strength === null;
    lines.push("Emperor: no emperor card, no strength (rule 4.1)");
  } else {
    const terms = [[1, `${n.emperorValue(table.emperor_card)} (emperor card)`]];
    let total = n.emperorValue(table.emperor_card);
    if (table.add_on) { terms.push([1, `${n.addOnValue(table.add_on)} (add-on)`]); total += n.addOnValue(table.add_on); }
    for (const play of table.plays.filter((p) => p.side === "EMPEROR")) { terms.push([1, `${term(play)} (traitor)`]); total += worth(play); }
    fits = fits && total === score.emperor_strength;
    lines.push(`Emperor: ${sum(terms)} = ${total}`);
  }
  return fits ? lines : null;
}

// What a week's scoring gave, with the numbers that decided it: placing (rule 5.5), the emperor card (5.7) and
// the tokens (5.4).
export function weekOutcome(score, n, seat) {
  const best = Math.max(...score.strengths);
  const strongest = score.strongest.map((f) => n.faction(f)).join(" and ");
  const emperor = score.emperor_strength;
  const lines = [];
  if (emperor === null) lines.push(`No emperor this week: the strongest, ${strongest} with ${best}, place cards (rule 5.5).`);
  else if (best > emperor) lines.push(`${strongest} with ${best} beat the emperor's ${emperor}: the strongest place cards and the emperor card is not scored (rules 5.5, 5.7).`);
  else if (best === emperor) lines.push(`${strongest} with ${best} tie the emperor's ${emperor}: the strongest place cards and the emperor card is scored too (rules 5.5, 5.7).`);
  else lines.push(`The emperor's ${emperor} beats ${strongest} with ${best}: no faction card is placed and the emperor card is scored (rules 5.5, 5.7).`);
  const placing = score.placements.map((due) => `one ${n.faction(due.faction)} card by ${seat(due.seat)}`);
  if (emperor === null || best >= emperor) lines.push(`Placing (most support, rule 5.3): ${placing.length ? placing.join(", ") : "nobody (no revolution-side card of the strongest)"}.`);
  const awards = score.awards.map((a) => `${seat(a.seat)} +${a.points} (${a.reason === "MOST_SUPPORT" ? "most support" : "highest card"} of ${n.faction(a.faction)})`);
  lines.push(`Tokens (rule 5.4): ${awards.length ? awards.join(", ") : "nobody"}.`);
  return lines;
}

// One event as {text, cards, scoring}: `cards` lists the hand cards it names (the tests read them).
export function describe(event, n, me, names) {
  const seat = (s) => seatName(s, me, names);
  const cardList = (cards) => cards.map((c) => n.card(c)).join(", ");
  const line = (text, cards = [], scoring = false) => ({ text, cards, scoring });
  switch (event.kind) {
    case "game-started":
      return line(`A game of ${event.players} begins${event.add_on ? ` with the ${n.addOn(event.add_on)}` : ""}: 9 cards each.`);
    case "hand-dealt":
      return line(`You are dealt ${cardList(event.cards)}; your secret victor faction is ${n.faction(event.victor)}.`, event.cards);
    case "choice-made":
      return line(`${seat(event.seat)} chose for ${PHASE_WORDS[event.phase] || event.phase}${event.action && event.action.kind === "choose-support" ? `: ${n.faction(event.action.faction)}` : ""}.`);
    case "choice-withdrawn":
      return line(`${seat(event.seat)} withdrew its choice for ${PHASE_WORDS[event.phase] || event.phase}.`);
    case "cards-passed":
      return event.cards
        ? line(`${seat(event.seat)} passed ${cardList(event.cards)} to ${seat(event.to_seat)}.`, event.cards)
        : line(`${seat(event.seat)} passed 2 cards to ${seat(event.to_seat)}.`);
    case "draft-discarded":
      return line(event.cards ? `${seat(event.seat)} discarded ${cardList(event.cards)}.` : `${seat(event.seat)} discarded ${event.count} cards.`, event.cards || []);
    case "month-started":
      return line(`Month ${event.month} begins: ${event.revolution_pile_size} revolution cards and ${event.emperor_pile_size} emperor cards in its piles.`);
    case "week-started":
      return line(`Month ${event.month}, week ${event.week}: ${n.revolutionCard(event.revolution_card)}, ${n.emperorCard(event.emperor_card)}${event.add_on ? ` and the ${n.addOn(event.add_on)}` : ""} revealed.`);
    case "plays-revealed": {
      const plays = event.plays.map((play) => `${seat(play.seat)}: ${playWords(play, n)}`);
      const idle = [...event.idle].map((s) => `${seat(s)} played nothing`);
      return line(`Step ${event.step} revealed at once: ${[...plays, ...idle].join("; ")}.`, event.plays.map((p) => p.action.card));
    }
    case "strengths-revealed": {
      const support = event.support.map((row, s) => `${seat(s)} ${n.perFaction(row)}`).join("; ");
      const emperor = event.emperor_strength === null ? "no emperor card" : `the emperor ${event.emperor_strength}`;
      return line(`Week scoring (rules 5.1-5.3): strengths ${n.perFaction(event.strengths)}; ${emperor}. Strongest: ${event.strongest.map((f) => n.faction(f)).join(", ")}. Support: ${support}.`, [], true);
    }
    case "tokens-awarded": {
      const awards = event.awards.map((a) => `${seat(a.seat)} +${a.points} (${a.reason === "MOST_SUPPORT" ? "most support" : "highest card"} of ${n.faction(a.faction)})`);
      return line(`Tokens (rule 5.4): ${awards.length ? awards.join(", ") : "nobody"}. Month tokens now ${event.month_tokens.map((t, s) => `${seat(s)} ${t}`).join(", ")}.`, [], true);
    }
    case "emperor-card-scored":
      return line(`The emperor was strongest: ${n.emperorCard(event.card)} is scored (${n.emperorValue(event.card)} points, rule 5.7); the emperor's total is ${event.emperor_total}.`, [], true);
    case "placements-due":
      return line(`Placements due (rule 5.6): ${event.dues.map((d) => `${seat(d.seat)} places a ${n.faction(d.faction)} card`).join(", ")}.`, [], true);
    case "cards-placed":
      return line(`Placed on the score track (rule 5.5): ${event.placed.map((p) => `${n.card(p.card)} (${n.cardValue(p.card)}) by ${seat(p.seat)}`).join(", ") || "nothing"}. Card points now ${n.perFaction(event.card_points)}.`, event.placed.map((p) => p.card), true);
    case "reorganized":
      return line(`Re-organize after week ${event.week}: ${event.take_backs.map((c, s) => `${seat(s)} ${c === null ? "took nothing back" : `took back ${n.card(c)}`}, discarded ${event.discarded[s]}, drew ${event.drawn[s]}`).join("; ")}${event.reshuffled ? "; the discard pile was reshuffled" : ""}.`, event.take_backs.filter((c) => c !== null));
    case "hand-refilled":
      return line(`You discarded ${cardList(event.discarded) || "nothing"} and drew ${cardList(event.drawn) || "nothing"}.`, [...event.discarded, ...event.drawn]);
    case "month-scored": {
      const score = event.score;
      return line(`Month ${score.month} scoring (rules 7.1-7.3): support cards ${score.support.map((f, s) => `${seat(s)} ${n.faction(f)}`).join(", ")}; month totals (cards placed this month ${n.perFaction(score.card_points)}, plus the supporters' tokens) ${n.perFaction(score.totals)}; strongest ${score.strongest.map((f) => n.faction(f)).join(", ")}; the six-point split ${score.bonus.map((b, s) => `${seat(s)} +${b}`).join(", ")}. Banked tokens now ${event.banked_tokens.map((t, s) => `${seat(s)} ${t}`).join(", ")}.`, [], true);
    }
    case "timeout":
      return line(`${seat(event.seat)} ran out of time: the server's bot chose instead.`);
    case "game-over":
      return line(`Game over. ${verdictWords(event.verdict, n, seat).join(" ")}`, [], true);
    default:
      return line(`(${event.kind})`);
  }
}
