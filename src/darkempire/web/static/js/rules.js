// Rules help: what each phase, card and scoring means, with the rule numbers of spec/darkempire/rules.md.
// A test checks that every number cited here is a rule of the spec.
export const PHASES = {
  DRAFT_PASS: { title: "Draft pass", rules: ["2.5"], text: "Choose 2 of your 9 cards. All seats pass at once: your 2 cards go to the next seat, and you receive 2 from the previous one." },
  DRAFT_DISCARD: { title: "Draft discard", rules: ["2.6"], text: "Choose 2 of the 9 cards you now hold to discard face down. You keep 7." },
  CHOOSE_SUPPORT: { title: "Choose a support card", rules: ["3.2", "7.1"], text: "At the start of each month, secretly choose the faction you bet will be strongest in this month's scoring. Each faction only once per game; it is revealed at the monthly scoring." },
  PLAY_1: { title: "Play step 1", rules: ["4.2", "4.3", "4.4", "4.5"], text: "Everyone secretly plays one card; all are revealed at once. A faction card goes to the revolution side (adds to its faction and to your support) or to the emperor side as a traitor card (adds to the emperor, subtracts from its faction). One traitor play per week, none without an emperor card. No reinforcement at step 1." },
  PLAY_2: { title: "Play step 2", rules: ["4.2", "4.6"], text: "As step 1; a +3 reinforcement card may now be attached to any faction card revealed at an earlier step this week (onto a traitor card, it is your traitor play)." },
  PLAY_3: { title: "Play step 3", rules: ["4.2", "4.6"], text: "The last play step; then the week is scored." },
  PLACEMENT: { title: "Placement", rules: ["5.5", "5.6"], text: "The seats that supported a placed faction most choose which of its cards goes to the score track; it scores its printed value." },
  REORGANIZE: { title: "Re-organize", rules: ["6.1", "6.2", "6.3", "6.4"], text: "Traitor and reinforcement cards are discarded. You may take back one of your face-up cards from the table, discard hand cards, and refill to seven." },
  GAME_OVER: { title: "Game over", rules: ["8.1", "8.2", "8.3", "8.4", "8.5"], text: "Every victor card is revealed and the final totals decide the winner." },
};

export const CARDS = {
  FACTION_CARD: { title: "Faction card", rules: ["1.2", "4.3"], text: "Values 4 to 8, 13 per faction. Played to the revolution side or, as a traitor card, to the emperor side." },
  REINFORCEMENT_CARD: { title: "Reinforcement card (+3)", rules: ["1.2", "4.6"], text: "Attach it to a faction card revealed at an earlier step this week: +3 to that card's value for the week. The card's owner gains, not you." },
  EMPEROR_CARD: { title: "Emperor card", rules: ["1.3", "5.2", "5.7"], text: "Revealed at the week's start. Its value plus the traitor cards (and the add-on) is the emperor's strength; if the emperor is strongest, the card is scored for the emperor." },
  ADD_ON_CARD: { title: "Add-on card", rules: ["1.3", "2.2"], text: "With 4 players \"5 +\", with 5 players \"10 +\": adds to the emperor's strength in weeks with an emperor card. Never scored." },
  REVOLUTION_CARD: { title: "Revolution card", rules: ["1.4", "5.1"], text: "Revealed at the week's start: +3 to its faction's strength this week." },
  VICTOR_CARD: { title: "Victor card (secret)", rules: ["1.5", "8.1"], text: "The faction you want to win with. Your banked tokens add to it at the end. Nobody else sees it until the game ends." },
  SUPPORT_CARD: { title: "Temporary support card", rules: ["1.5", "3.2", "7.2"], text: "This month's bet on the strongest faction, hidden until the monthly scoring." },
};

export const SCORING = {
  week: { title: "Weekly scoring", rules: ["5.1", "5.2", "5.3", "5.4", "5.5", "5.7"], text: "Each faction's strength is its revolution-side cards (with reinforcements) plus 3 for the revolution card, minus its traitor cards. The emperor's strength is the emperor card, the add-on and the traitor cards. The strongest faction's most supporting seats get 2 tokens, the owner of its highest card 1." },
  month: { title: "Monthly scoring", rules: ["7.1", "7.2", "7.3"], text: "Month totals per faction are the cards placed this month plus the tokens of the seats supporting it. Six points are split among the seats that supported the strongest faction; month tokens are banked." },
  final: { title: "Final scoring", rules: ["8.1", "8.2", "8.3", "8.4", "8.5"], text: "A faction's final total is its score-track cards plus the banked tokens of its victor card's holder. If the emperor's total reaches the highest, the lowest held faction wins; otherwise the highest held one, unless a lone leader 15 or more ahead drops out." },
  track: { title: "Score track", rules: ["1.6", "5.5", "5.7"], text: "The track has 40 spaces, but totals go on past 40 (shown as 40+)." },
};

export const VERDICTS = {
  EMPEROR_VICTORY: { text: "Emperor victory: the emperor's total reached the highest faction total, so the held faction with the lowest total wins.", rule: "8.2" },
  REVOLUTION: { text: "Revolution: a faction beat the emperor, and the held faction with the highest total wins.", rule: "8.3" },
  LEADER_TOO_POWERFUL: { text: "Revolution, but the lone leader was 15 or more ahead and dropped out: the next held faction wins.", rule: "8.4" },
};

// Every help entry, in the order the help dialog lists them.
export const ALL = [
  ...Object.entries(PHASES).map(([key, entry]) => ({ key: `phase-${key}`, ...entry })),
  ...Object.entries(CARDS).map(([key, entry]) => ({ key: `card-${key}`, ...entry })),
  ...Object.entries(SCORING).map(([key, entry]) => ({ key: `scoring-${key}`, ...entry })),
];
