// The local table's page: a minimal Discord client for the fake Discord (no framework, no build step).
// It reads what the chosen local player sees and acts only through /api/slash, /api/click and
// /api/autocomplete, which the server turns into real interactions for the bot.
"use strict";

const S = {
  players: [], me: null, channels: [], channel: null, commands: [], users: [],
  seen: {},          // per player and channel: the newest message id already shown (for the unread mark)
  rendered: new Map(), // message id -> [json text, element]
  gesture: 0, ownScroll: 0, // when the reader last scrolled by hand, and when the page last scrolled itself
  stick: true,       // the messages are scrolled to the bottom: keep them there as pictures load
};
const $ = (sel) => document.querySelector(sel);
// this run's secret, written into the page by the server: every API request carries it (a page of another site
// has no way to read it), so only this page can read the table or act on it
const TOKEN = document.querySelector('meta[name="local-table-token"]').content;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "html") node.innerHTML = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function api(path, body) {
  const headers = { "X-Local-Table-Token": TOKEN };
  const opts = body === undefined ? { headers }
    : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const resp = await fetch(path, opts);
  const data = await resp.json().catch(() => ({ error: `HTTP ${resp.status}` }));
  if (!resp.ok) throw new Error(data.error || `HTTP ${resp.status}`);
  return data;
}

function showError(text) { $("#error").textContent = text || ""; }

// ------------------------------------------------------------------ Discord markdown (the parts the bot uses)

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function inline(text, mentions) {
  let s = escapeHtml(text);
  s = s.replace(/`([^`]+)`/g, "<code>$1</code>");
  s = s.replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${escapeHtml(mentions[id] || userName(id))}</span>`);
  s = s.replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention">#${escapeHtml(channelName(id))}</span>`);
  s = s.replace(/&lt;@&amp;(\d+)&gt;/g, "<span class=\"mention\">@role</span>");
  s = s.replace(/&lt;t:(\d+)(?::([tTdDfFR]))?&gt;/g, (_, t, f) => escapeHtml(timeText(Number(t), f)));
  s = s.replace(/&lt;a?:(\w+):\d+&gt;/g, ":$1:");
  s = s.replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>");
  s = s.replace(/__(.+?)__/g, "<u>$1</u>");
  s = s.replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, "$1<em>$2</em>");
  s = s.replace(/(^|\W)_(?!\s)(.+?)_(?!\w)/g, "$1<em>$2</em>");
  s = s.replace(/~~(.+?)~~/g, "<s>$1</s>");
  s = s.replace(/\|\|(.+?)\|\|/g, "<span class=\"spoiler\" onclick=\"this.classList.toggle('shown')\">$1</span>");
  return s;
}

function markdown(text, mentions = {}) {
  if (!text) return "";
  const out = [];
  const blocks = text.split(/```/);
  blocks.forEach((block, i) => {
    if (i % 2) { out.push(`<pre>${escapeHtml(block.replace(/^\w*\n/, ""))}</pre>`); return; }
    const lines = block.split("\n").map((line) => {
      let m;
      if ((m = line.match(/^(#{1,3}) (.*)$/))) return `<h${m[1].length}>${inline(m[2], mentions)}</h${m[1].length}>`;
      if ((m = line.match(/^-# (.*)$/))) return `<span class="subtext">${inline(m[1], mentions)}</span>`;
      if ((m = line.match(/^> (.*)$/))) return `<blockquote>${inline(m[1], mentions)}</blockquote>`;
      return inline(line, mentions);
    });
    // headings and quotes are blocks: no extra newline after them
    out.push(lines.map((l, j) => (j < lines.length - 1 && !/^<(h\d|blockquote)/.test(l) ? l + "\n" : l)).join(""));
  });
  return out.join("");
}

function timeText(t, f) {
  const d = new Date(t * 1000);
  if (f === "R") {
    const s = Math.round(t - Date.now() / 1000), a = Math.abs(s);
    const [n, u] = a < 90 ? [a, "second"] : a < 5400 ? [Math.round(a / 60), "minute"] : a < 129600 ? [Math.round(a / 3600), "hour"] : [Math.round(a / 86400), "day"];
    const span = `${n} ${u}${n === 1 ? "" : "s"}`;
    return s >= 0 ? `in ${span}` : `${span} ago`;
  }
  return f === "t" || f === "T" ? d.toLocaleTimeString() : d.toLocaleString();
}

function userName(id) { const u = S.users.find((x) => x.id === id); return u ? u.name : id; }
function channelName(id) { const c = S.channels.find((x) => x.id === id); return c ? c.name : id; }

// ------------------------------------------------------------------ messages

function renderEmbed(e, files, used) {
  const color = e.color !== undefined ? `#${e.color.toString(16).padStart(6, "0")}` : null;
  const image = e.image && pictureUrl(e.image.url, files, used);
  const thumb = e.thumbnail && pictureUrl(e.thumbnail.url, files, used);
  return el("div", { class: "embed", style: color ? `border-left-color:${color}` : null },
    e.author && e.author.name ? el("div", { class: "muted" }, e.author.name) : null,
    e.title ? el("div", { class: "title", html: inline(e.title, {}) }) : null,
    e.description ? el("div", { class: "content", html: markdown(e.description) }) : null,
    e.fields && e.fields.length ? el("div", { class: "fields" }, e.fields.map((f) =>
      el("div", { class: f.inline ? "field" : "field block" },
        el("div", { class: "field-name", html: inline(f.name, {}) }),
        el("div", { class: "content", html: markdown(f.value) })))) : null,
    thumb ? el("img", { class: "picture", src: thumb, alt: "thumbnail", style: "max-width:160px" }) : null,
    image ? picture(image, e.image.description || "picture") : null,
    e.footer && e.footer.text ? el("div", { class: "footer" }, e.footer.text) : null);
}

/** Scroll the messages to the newest (the page's own move, which the scroll listener does not take as the reader's). */
function toBottom() {
  const box = $("#messages");
  S.ownScroll = Date.now();
  box.scrollTop = box.scrollHeight;
}

function picture(src, alt, extra = {}) {
  const img = el("img", { class: "picture board", src, alt, ...extra });
  img.addEventListener("load", () => { if (S.stick) toBottom(); });
  return img;
}

function pictureUrl(url, files, used) {
  if (!url) return null;
  if (url.startsWith("attachment://")) {
    const name = url.slice("attachment://".length);
    const f = files.find((a) => a.filename === name);
    if (!f) return null;
    used.add(name);
    return f.url;
  }
  return null; // nothing is loaded from outside this machine
}

function renderComponents(msg, components) {
  return components.map((c) => {
    if (c.type === 1) return el("div", { class: "row" }, renderComponents(msg, c.components || []));
    if (c.type === 2) return renderButton(msg, c);
    if ([3, 5, 6, 7, 8].includes(c.type)) return renderSelect(msg, c);
    if (c.type === 10) return el("div", { class: "content", html: markdown(c.content) });
    if (c.components) return el("div", { class: "container" }, renderComponents(msg, c.components));
    return null;
  });
}

function renderButton(msg, c) {
  const label = [c.emoji ? (c.emoji.id ? `:${c.emoji.name}:` : c.emoji.name) : "", c.label || ""].filter(Boolean).join(" ");
  if (c.style === 5) return el("a", { class: "style-5", href: c.url, target: "_blank", rel: "noreferrer" }, label, " ↗");
  return el("button", {
    type: "button", class: `style-${c.style || 2}`, disabled: !!c.disabled, "data-custom-id": c.custom_id,
    onclick: (ev) => interact(ev.currentTarget, msg.id, c.custom_id, null),
  }, label);
}

function renderSelect(msg, c) {
  let options = c.options || [];
  if (c.type === 5) options = S.users.map((u) => ({ label: u.name, value: u.id }));
  if (c.type === 8) options = S.channels.filter((x) => x.kind !== "dm").map((x) => ({ label: x.name, value: x.id }));
  const multi = (c.max_values || 1) > 1;
  const select = el("select", { "data-custom-id": c.custom_id, disabled: !!c.disabled, multiple: multi, size: multi ? Math.min(options.length, 6) : null },
    multi ? null : el("option", { value: "", selected: true, disabled: true }, c.placeholder || "Make a selection"),
    options.map((o) => el("option", { value: o.value, title: o.description || null },
      [o.emoji ? o.emoji.name : "", o.label, o.description ? `— ${o.description}` : ""].filter(Boolean).join(" "))));
  if (!multi) {
    select.addEventListener("change", () => interact(select, msg.id, c.custom_id, [select.value]));
    return el("div", { class: "component" }, select);
  }
  const send = el("button", { type: "button", class: "style-1", onclick: () =>
    interact(send, msg.id, c.custom_id, [...select.selectedOptions].map((o) => o.value)) }, "Choose");
  return el("div", { class: "component" }, el("div", { class: "muted" }, c.placeholder || ""), select, send);
}

async function interact(control, message, customId, values) {
  showError("");
  control.disabled = true;
  S.stick = true; // as on Discord, your own action brings the chat to its newest message (the answer comes there)
  try {
    await api("/api/click", { user: S.me.id, message, custom_id: customId, values });
  } catch (err) {
    showError(err.message);
  } finally {
    control.disabled = false;
    refresh();
  }
}

function renderMessage(m) {
  const files = m.attachments, used = new Set();
  const embeds = m.embeds.map((e) => renderEmbed(e, files, used));
  const pictures = files.filter((a) => !used.has(a.filename)).map((a) =>
    /\.(png|jpe?g|gif|webp)$/i.test(a.filename)
      ? picture(a.url, a.description || a.filename)
      : el("a", { href: a.url, download: a.filename }, a.filename));
  return el("div", { class: m.ephemeral ? "message ephemeral" : "message", "data-message-id": m.id },
    m.via ? el("div", { class: "via" }, `${m.via.user}${m.via.command ? ` used /${m.via.command}` : " clicked"}`) : null,
    el("span", { class: "bot-tag" }, "BOT"), el("span", { class: "author" }, "Speakeasy Table"),
    el("span", { class: "muted" }, new Date(m.timestamp).toLocaleTimeString(), m.edited ? " (edited)" : ""),
    m.loading ? el("div", { class: "muted" }, "Speakeasy Table is thinking…") : null,
    m.content ? el("div", { class: "content", html: markdown(m.content, m.mentions) }) : null,
    embeds, pictures, renderComponents(m, m.components),
    m.ephemeral ? el("div", { class: "ephemeral-note" }, "Only you can see this") : null);
}

async function loadMessages() {
  if (!S.channel) return;
  const [me, channel] = [S.me.id, S.channel];
  const list = await api(`/api/messages?user=${me}&channel=${channel}`);
  if (me !== S.me.id || channel !== S.channel) return; // switched meanwhile
  const box = $("#messages");
  const atBottom = S.stick || box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const keep = new Set(list.map((m) => m.id));
  for (const [id, [, node]] of S.rendered) if (!keep.has(id)) { node.remove(); S.rendered.delete(id); }
  let previous = null;
  for (const m of list) {
    const text = JSON.stringify(m);
    let entry = S.rendered.get(m.id);
    if (!entry || entry[0] !== text) {
      const node = renderMessage(m);
      if (entry) entry[1].replaceWith(node);
      entry = [text, node];
      S.rendered.set(m.id, entry);
    }
    const node = entry[1];
    if (previous ? previous.nextSibling !== node : box.firstChild !== node) {
      if (previous) previous.after(node); else box.prepend(node);
    }
    previous = node;
  }
  if (list.length) S.seen[`${me}:${channel}`] = list[list.length - 1].id;
  if (atBottom) toBottom();
  S.stick = atBottom;
}

// ------------------------------------------------------------------ channels, players

async function loadChannels() {
  const me = S.me;
  const channels = await api(`/api/channels?user=${me.id}`);
  if (me !== S.me) return; // switched meanwhile: that player's list is on its way
  S.channels = channels;
  if (!S.channels.some((c) => c.id === S.channel)) {
    const general = S.channels.find((c) => c.name === "general") || S.channels[0];
    selectChannel(general ? general.id : null);
  }
  const box = $("#channels");
  box.replaceChildren();
  const groups = [["channel", "Text channels"], ["thread", "Game threads"], ["dm", "Direct messages"]];
  for (const [kind, title] of groups) {
    const items = S.channels.filter((c) => c.kind === kind);
    if (!items.length) continue;
    box.append(el("h3", {}, title));
    for (const c of items) {
      const seen = S.seen[`${S.me.id}:${c.id}`];
      const unread = c.last && c.id !== S.channel && (!seen || BigInt(c.last) > BigInt(seen));
      const cls = ["channel", kind, c.id === S.channel ? "current" : "", unread ? "unread" : "", c.archived ? "archived" : ""];
      box.append(el("button", { type: "button", class: cls.filter(Boolean).join(" "), "data-channel-id": c.id,
        "data-kind": kind, onclick: () => { selectChannel(c.id); refresh(); } },
        kind === "dm" ? `@ ${S.me.name} ↔ bot` : `${kind === "thread" ? "↳" : "#"} ${c.name}`));
    }
  }
  box.dataset.player = S.me.username; // the list shown is this player's
}

function selectChannel(id) {
  if (id === S.channel) return;
  S.channel = id;
  S.rendered.clear();
  $("#messages").replaceChildren();
  const c = S.channels.find((x) => x.id === id);
  $("#channel-title").textContent = c ? (c.kind === "dm" ? `Direct messages of ${S.me.name}` : `# ${c.name}`) : "";
}

function renderPlayers() {
  $("#players").replaceChildren(...S.players.map((u) => el("button", {
    type: "button", class: u.id === S.me.id ? "me" : "", "data-player": u.username,
    onclick: () => switchPlayer(u),
  }, u.name)));
  $("#lang").value = S.me.locale || "en-US";
}

// Each local player's Discord language (issue 24): sent as the locale of their clicks and commands from now on.
async function setLocale() {
  const locale = $("#lang").value;
  try {
    await api("/api/locale", { user: S.me.id, locale });
    S.me.locale = locale;
    showError("");
  } catch (err) {
    showError(err.message);
    $("#lang").value = S.me.locale || "en-US";
  }
}

function switchPlayer(user) {
  S.me = user;
  localStorage.setItem("player", user.username);
  const url = new URL(location.href);
  url.searchParams.set("as", user.username);
  history.replaceState(null, "", url);
  const channel = S.channel;
  S.channel = null;
  selectChannel(channel); // the same channel if this player sees it too (loadChannels checks)
  renderPlayers();
  showError("");
  refresh();
}

// ------------------------------------------------------------------ slash commands

async function loadCommands() {
  const data = await api("/api/commands");
  S.commands = data.commands;
  S.users = data.users;
  const select = $("#command");
  const current = select.value;
  select.replaceChildren(el("option", { value: "" }, "Choose a slash command…"),
    ...S.commands.map((c) => el("option", { value: c.path, selected: c.path === current }, `/${c.path}`)));
}

function renderOptions() {
  const cmd = S.commands.find((c) => c.path === $("#command").value);
  const box = $("#options");
  box.replaceChildren();
  $("#command-help").textContent = cmd ? cmd.description : "";
  if (!cmd) return;
  for (const o of cmd.options) {
    let input;
    if (o.choices && o.choices.length) {
      input = el("select", { name: o.name }, el("option", { value: "" }, ""),
        o.choices.map((ch) => el("option", { value: String(ch.value) }, ch.name)));
    } else if (o.type === 5) {
      input = el("select", { name: o.name }, el("option", { value: "" }, ""), el("option", { value: "true" }, "True"), el("option", { value: "false" }, "False"));
    } else if (o.type === 6 || o.type === 9) {
      input = el("select", { name: o.name }, el("option", { value: "" }, ""), S.users.map((u) => el("option", { value: u.id }, u.name)));
    } else if (o.type === 7) {
      input = el("select", { name: o.name }, el("option", { value: "" }, ""), S.channels.filter((c) => c.kind !== "dm").map((c) => el("option", { value: c.id }, c.name)));
    } else {
      const list = o.autocomplete ? el("datalist", { id: `ac-${o.name}` }) : null;
      input = el("input", { name: o.name, type: [4, 10].includes(o.type) ? "number" : "text", list: list ? list.id : null,
        placeholder: o.description || "" });
      if (list) input.addEventListener("input", () => autocomplete(cmd, o.name, list));
      box.append(el("label", { title: o.description || "" }, el("span", { class: o.required ? "required" : "" }, o.name), input, list));
      continue;
    }
    box.append(el("label", { title: o.description || "" }, el("span", { class: o.required ? "required" : "" }, o.name), input));
  }
}

function formOptions() {
  const out = {};
  for (const input of $("#options").querySelectorAll("[name]")) if (input.value !== "") out[input.name] = input.value;
  return out;
}

let acTimer = null;
function autocomplete(cmd, focused, list) {
  clearTimeout(acTimer);
  acTimer = setTimeout(async () => {
    const options = formOptions();
    options[focused] = options[focused] || "";
    try {
      const data = await api("/api/autocomplete", { user: S.me.id, channel: S.channel, command: cmd.path, options, focused });
      list.replaceChildren(...data.choices.map((ch) => el("option", { value: String(ch.value) }, ch.name)));
    } catch (err) { showError(err.message); }
  }, 150);
}

async function sendCommand(ev) {
  ev.preventDefault();
  showError("");
  const command = $("#command").value;
  if (!command) { showError("Choose a slash command first."); return; }
  $("#send").disabled = true;
  S.stick = true;
  try {
    await api("/api/slash", { user: S.me.id, channel: S.channel, command, options: formOptions() });
  } catch (err) {
    showError(err.message);
  } finally {
    $("#send").disabled = false;
    refresh();
  }
}

// ------------------------------------------------------------------ live updates

// One refresh at a time: two in flight could answer out of order, and an older channel list (from before a DM
// or thread existed) arriving last would move the reader off the channel they had just opened from a newer one.
let pending = null, running = false, again = false;
function refresh() {
  if (running) { again = true; return; }
  if (pending) return;
  pending = setTimeout(async () => {
    pending = null;
    running = true;
    try {
      await loadChannels();
      await loadMessages();
      if (!S.commands.length) { await loadCommands(); renderOptions(); }
    } catch (err) { showError(err.message); } finally {
      running = false;
      if (again) { again = false; refresh(); }
    }
  }, 60);
}

function listen() {
  const events = new EventSource(`/api/events?token=${encodeURIComponent(TOKEN)}`);
  events.onopen = () => { $("#live").textContent = "live"; $("#live").className = "on"; refresh(); };
  events.onerror = () => {
    // a refused stream is not retried: the table stopped, or was restarted with a new token
    const closed = events.readyState === EventSource.CLOSED;
    $("#live").textContent = closed ? "stopped" : "reconnecting…";
    $("#live").className = "muted";
    if (closed) showError("The local table stopped or was restarted: reload the page.");
  };
  events.onmessage = () => refresh();
}

async function start() {
  S.players = await api("/api/players");
  const wanted = new URL(location.href).searchParams.get("as") || localStorage.getItem("player");
  S.me = S.players.find((u) => u.username === wanted) || S.players[0];
  renderPlayers();
  await loadCommands();
  await loadChannels();
  renderOptions();
  $("#command").addEventListener("change", renderOptions);
  $("#lang").addEventListener("change", setLocale);
  // Only the reader's own scrolling (wheel, touch, keys, the scrollbar) unsticks the chat from its newest message:
  // the page's own moves (to the bottom as a picture loads, the browser keeping its place) must not.
  const box = $("#messages");
  for (const kind of ["wheel", "touchmove", "keydown"]) box.addEventListener(kind, () => { S.gesture = Date.now(); }, { passive: true });
  box.addEventListener("mousedown", (ev) => { if (ev.target === box) S.gesture = Date.now(); });
  box.addEventListener("scroll", () => {
    if (S.gesture <= S.ownScroll || Date.now() - S.gesture > 1000) return;
    S.stick = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  });
  $("#command-box").addEventListener("submit", sendCommand);
  await loadMessages();
  listen();
}

start().catch((err) => showError(err.message));
