// Login for dealers and technicians: an HttpOnly session cookie set by /api/staff/login.
// ensureStaff(root, role) resolves with {user, role, tables} once someone with that role
// is signed in, showing a login form in `root` until then.

export async function ensureStaff(root, roles) {
  const me = await fetch("/api/staff/me").then((r) => r.json());
  if (me.ok && roles.includes(me.role)) return me;
  return new Promise((resolve) => {
    root.hidden = false;
    const form = root.querySelector("form");
    const error = root.querySelector(".error");
    if (me.ok) error.textContent = `Signed in as ${me.user} (${me.role}): not allowed here.`;
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = { username: form.username.value, password: form.password.value };
      const r = await fetch("/api/staff/login", { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const answer = await r.json();
      if (!answer.ok) { error.textContent = answer.error.message; return; }
      if (!roles.includes(answer.role)) {
        error.textContent = `${answer.user} is a ${answer.role}: not allowed here.`;
        return;
      }
      root.hidden = true;
      resolve(await fetch("/api/staff/me").then((r2) => r2.json()));
    });
  });
}

export function newKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");
}

export function staffSocket(tableId, onMessage, onState) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let retry = 0;
  const open = () => {
    const ws = new WebSocket(`${scheme}://${location.host}/ws/staff?table=${tableId}`);
    ws.onopen = () => { retry = 0; onState(true); };
    ws.onmessage = (m) => onMessage(JSON.parse(m.data));
    ws.onclose = () => { onState(false); setTimeout(open, Math.min(3000, 500 * ++retry)); };
  };
  open();
}

const SUITS = { d: "♦", c: "♥", b: "♣", s: "♠" };
// Cards are drawn in the table's own art (the scans at /cards/<art>/<code>.jpg) once the page
// knows it (setCardArt); the code in text stays as the image's alternative.
let cardArt = null;
export function setCardArt(art) { cardArt = art || null; }

export function cardHtml(doc, code) {
  if (cardArt) {
    const img = doc.createElement("img");
    img.className = "card card-img";
    img.src = `/cards/${cardArt}/${code || "back"}.jpg`;
    img.alt = code ? `${code[0]}${SUITS[code[1]] || code[1]}` : "face down";
    img.title = code ? img.alt : "face down";
    if (code) img.dataset.card = code;
    return img;
  }
  const e = doc.createElement("span");
  if (!code) { e.className = "card back"; e.title = "face down"; e.textContent = "?"; return e; }
  e.className = `card${code[1] === "d" || code[1] === "c" ? " red" : ""}`;
  e.dataset.card = code;
  e.textContent = `${code[0]}${SUITS[code[1]] || code[1]}`;
  return e;
}

export function halves(h) {
  if (h === null || h === undefined) return "";
  const whole = Math.floor(h / 2);
  return h % 2 ? (whole ? `${whole}½` : "½") : String(whole);
}
