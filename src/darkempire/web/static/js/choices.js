// What is legal now, as clickable choices. The prompt lists every legal action and its label; the page never
// makes an action up, it sends one of those. Picking cards narrows the list: a card, then a side or a target.

// The cards a player picks to name an action: the card played, passed, discarded, placed or taken back.
// A reinforcement's target is not picked as a card: it is the choice that follows the +3.
export function pickedCards(action) {
  const cards = [];
  if (action.card !== undefined) cards.push(action.card);
  if (action.cards) cards.push(...action.cards);
  if (action.discards) cards.push(...action.discards);
  if (action.take_back !== undefined && action.take_back !== null) cards.push(action.take_back);
  return cards;
}

// Every card some legal action picks.
export function selectableCards(actions) {
  return new Set(actions.flatMap(pickedCards));
}

// The indices of the actions that pick every selected card, those that pick exactly them first.
export function matching(actions, selected) {
  const fits = [];
  actions.forEach((action, index) => {
    const cards = pickedCards(action);
    if ([...selected].every((card) => cards.includes(card))) fits.push({ index, exact: cards.length === selected.size });
  });
  return [...fits.filter((f) => f.exact), ...fits.filter((f) => !f.exact)].map((f) => f.index);
}

// A click on a card: it joins the selection, or leaves it; a card no action picks with the others starts a
// new selection, so a click is never refused.
export function toggle(actions, selected, card) {
  const next = new Set(selected);
  if (next.has(card)) { next.delete(card); return next; }
  next.add(card);
  return matching(actions, next).length ? next : new Set([card]);
}
