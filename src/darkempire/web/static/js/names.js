// Card and faction names in the match's theme, from the server's card table (GET api/card-table): the ids in
// prompts and events are the wire format's, the names are looked up here.
export class Names {
  constructor(table, theme) {
    this.theme = theme; // "STEAM_NOIR" or "DARK_EMPIRE", as the prompt says
    this.factionOrder = table.factions.map((entry) => entry.faction); // the order of every per-faction list
    this.factions = new Map(table.factions.map((entry) => [entry.faction, entry]));
    this.hand = new Map(table.hand_cards.map((entry) => [entry.id, entry]));
    this.emperor = new Map(table.emperor_cards.map((entry) => [entry.id, entry]));
    this.addOns = new Map(table.add_on_cards.map((entry) => [entry.card, entry]));
    this.revolution = new Map(table.revolution_cards.map((entry) => [entry.faction, entry]));
  }

  faction(faction) { return faction ? this.factions.get(faction).names[this.theme] : "none"; }
  card(id) { return this.hand.get(id).names[this.theme]; }
  cardValue(id) { return this.hand.get(id).value; }
  cardFaction(id) { return this.hand.get(id).faction; }
  isReinforcement(id) { return this.hand.get(id).kind === "REINFORCEMENT_CARD"; }
  emperorCard(id) { return id === null ? "no emperor card" : this.emperor.get(id).names[this.theme]; }
  emperorValue(id) { return this.emperor.get(id).value; }
  addOn(card) { return card ? this.addOns.get(card).names[this.theme] : null; }
  addOnValue(card) { return card ? this.addOns.get(card).value : 0; }
  revolutionCard(faction) { return this.revolution.get(faction).names[this.theme]; }
  perFaction(values) { return this.factionOrder.map((faction, i) => `${this.faction(faction)} ${values[i]}`).join(", "); }
  side(side) { return side === "REVOLUTION" ? "the revolution side" : "the emperor side (a traitor card)"; }
}
