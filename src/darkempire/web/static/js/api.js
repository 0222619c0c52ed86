// The two ways the page talks to the server: the lobby's JSON routes over HTTP and one game connection over a
// WebSocket (protocol darkempire-server/1, docs/protocol.md). Nothing else is ever asked for.
export const PROTOCOL = "darkempire-server/1";

async function request(method, path, body) {
  const answer = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await answer.json();
  if (!answer.ok) throw new Error(data.error ? data.error.message : `the server answered ${answer.status}`);
  return data;
}

export const lobby = {
  cardTable: () => request("GET", "api/card-table"),
  open: () => request("GET", "api/matches").then((data) => data.matches),
  summary: (id) => request("GET", `api/matches/${encodeURIComponent(id)}`).then((data) => data.match),
  create: (settings) => request("POST", "api/matches", settings).then((data) => data.match),
  join: (id, seat, name) => request("POST", `api/matches/${encodeURIComponent(id)}/join`, name ? { seat, name } : { seat }),
};

// A seat's credential is kept in this browser only (localStorage), under its match and seat: a reloaded page
// finds it again, and it never goes into a URL.
const key = (id, seat) => `darkempire:${id}:${seat}`;
export const credentials = {
  get: (id, seat) => localStorage.getItem(key(id, seat)),
  set: (id, seat, credential) => localStorage.setItem(key(id, seat), credential),
  forget: (id, seat) => localStorage.removeItem(key(id, seat)),
};

// One game connection. `onMessage` gets every server message; `hello` is sent on opening, with `since` so a
// reconnection is told only what it missed.
export class GameSocket {
  constructor(matchId, seat, credential, onMessage, onClose) {
    this.matchId = matchId;
    this.seat = seat;
    this.credential = credential;
    this.onMessage = onMessage;
    this.onClose = onClose;
    this.since = null;
    this.greeted = false; // whether the newest connection's hello was answered with a welcome
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const base = new URL(".", location.href).pathname;
    const socket = new WebSocket(`${scheme}//${location.host}${base}api/matches/${encodeURIComponent(this.matchId)}/socket`);
    this.socket = socket;
    this.greeted = false;
    // A replaced socket's late events are ignored: only the newest connection speaks for the page.
    socket.addEventListener("open", () => this.send("hello", {
      seat: this.seat, credential: this.credential, since: this.since,
    }));
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      const message = JSON.parse(event.data);
      if (message.type === "welcome") this.greeted = true;
      if (message.type === "welcome" || message.type === "update") this.since = message.seq;
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => { if (socket === this.socket) this.onClose(event); });
  }

  send(type, fields) {
    this.socket.send(JSON.stringify({ format: PROTOCOL, type, ...fields }));
  }

  // The action is sent exactly as the prompt listed it.
  act(action) {
    this.send("act", { credential: this.credential, action });
  }

  // Start again from the last seq seen: the welcome brings the current prompt and the events in between.
  reconnect() {
    const old = this.socket;
    this.open();
    old.close();
  }

  // Stop for good: the page neither hears this connection again nor opens another.
  close() {
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
  }
}
