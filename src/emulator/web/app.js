// The playground page: draws what the emulator holds for the chosen persona (channels, DMs, the
// Home tab, the open modal; all rendered to safe HTML by the server, src/emulator/ui.ts), keeps
// it live over server-sent events, and sends what the person does back to the emulator, which
// does it as Slack would. Plain JavaScript, no build step. See docs/architecture.md,
// "Emulator and playground".

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const page = {
  workspace: null,
  persona: '',
  conversation: '',
  modal: { id: '', hash: '' },
  suggestion: -1,
};

// The address printed at start carries the page's token (`?token=…`); the server keeps it in an
// HttpOnly cookie, so it is taken out of the address bar (and of the history) at once.
if (new URLSearchParams(location.search).has('token')) {
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
}

/** A 403: the token is missing or from an earlier start (or the request came from elsewhere). */
function refused(response) {
  if (response.status === 403) $('#refused').hidden = false;
}

async function getJson(path) {
  const response = await fetch(path, { cache: 'no-store' });
  refused(response);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

// Every change goes as JSON: the server refuses any other body, and the page's own Origin.
async function postJson(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  refused(response);
  return response.json();
}

function post(path, body) {
  return postJson(path, { user: page.persona, ...body });
}

/** A file's bytes in base64 (read by the browser as a data: URL, whose header is dropped). */
function base64Of(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function toast(text) {
  const box = $('#toast');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    box.hidden = true;
  }, 6000);
}

// ---- Dates as Slack writes them (`<!date^…^{date_short_pretty} {time}|…>`), in the reader's zone.

function dayDiff(date) {
  const start = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((start(date) - start(new Date())) / 86_400_000);
}

function pretty(date, fallback) {
  const diff = dayDiff(date);
  if (diff === 0) return 'Today';
  if (diff === -1) return 'Yesterday';
  if (diff === 1) return 'Tomorrow';
  return fallback;
}

function ago(date) {
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  const units = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    const n = Math.floor(Math.abs(seconds) / size);
    if (n >= 1)
      return seconds >= 0 ? `${n} ${unit}${n === 1 ? '' : 's'} ago` : `in ${n} ${unit}${n === 1 ? '' : 's'}`;
  }
  return 'just now';
}

function formatSlackDate(date, format) {
  const f = (options) => date.toLocaleString('en-US', options);
  const dateLong = f({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
  const dateMedium = f({ month: 'long', day: 'numeric', year: 'numeric' });
  const dateShort = f({ month: 'short', day: 'numeric', year: 'numeric' });
  const pad = (n) => String(n).padStart(2, '0');
  const tokens = {
    date_num: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    date: dateMedium,
    date_short: dateShort,
    date_long: dateLong,
    date_pretty: pretty(date, dateMedium),
    date_short_pretty: pretty(date, dateShort),
    date_long_pretty: pretty(date, dateLong),
    time: f({ hour: 'numeric', minute: '2-digit' }),
    time_secs: f({ hour: 'numeric', minute: '2-digit', second: '2-digit' }),
    ago: ago(date),
  };
  return format.replace(/\{([a-z_]+)\}/g, (whole, name) => tokens[name] ?? whole);
}

function formatTimes(root) {
  for (const time of $$('time[datetime][data-format]', root)) {
    const date = new Date(time.getAttribute('datetime'));
    if (Number.isNaN(date.getTime())) continue;
    time.textContent = formatSlackDate(date, time.dataset.format);
    time.title = date.toString();
  }
}

// ---- Drawing the state.

function sidebarItem(id, label, prefix) {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = `#${id}`;
  a.dataset.conversation = id;
  a.textContent = `${prefix}${label}`;
  if (id === page.conversation) a.setAttribute('aria-current', 'page');
  li.append(a);
  return li;
}

function drawSidebar(state) {
  $('#channels').replaceChildren(...state.channels.map((c) => sidebarItem(c.id, c.name, '# ')));
  $('#dms').replaceChildren(...state.dms.map((d) => sidebarItem(d.id, d.name, '● ')));
  const home = $('#home-link');
  if (page.conversation === 'home') home.setAttribute('aria-current', 'page');
  else home.removeAttribute('aria-current');
}

// The markup each drawn message came from: a message whose markup did not change keeps its
// element, so a redraw for a new message elsewhere does not reset a selection, a half-read
// message or a button under the pointer.
const drawnFrom = new WeakMap();

function drawMessages(messages, html) {
  const unchanged = new Map();
  for (const node of messages.children) {
    const source = drawnFrom.get(node);
    if (source === undefined) continue;
    const same = unchanged.get(source) ?? [];
    same.push(node);
    unchanged.set(source, same);
  }
  const template = document.createElement('template');
  template.innerHTML = html;
  const next = [...template.content.children].map((node) => {
    const source = node.outerHTML;
    const kept = unchanged.get(source)?.shift();
    if (kept !== undefined) return kept;
    drawnFrom.set(node, source);
    formatTimes(node);
    return node;
  });
  const current = [...messages.children];
  if (next.length === current.length && next.every((node, i) => node === current[i])) return;
  messages.replaceChildren(...next);
}

function drawConversation(state) {
  const messages = $('#messages');
  const atBottom = messages.scrollHeight - messages.scrollTop - messages.clientHeight < 40;
  $('#conversation-title').textContent = state.conversation.title;
  $('#conversation-subtitle').textContent = state.conversation.subtitle;
  drawMessages(messages, state.conversation.html);
  if (atBottom) messages.scrollTop = messages.scrollHeight;
  $('#composer').hidden = state.conversation.kind === 'home';
}

function drawModal(modal) {
  const layer = $('#modal-layer');
  if (modal === null) {
    layer.hidden = true;
    page.modal = { id: '', hash: '' };
    return;
  }
  layer.hidden = false;
  // Redrawn only when the view changed: what the person typed stays otherwise.
  if (modal.id === page.modal.id && modal.hash === page.modal.hash) return;
  page.modal = { id: modal.id, hash: modal.hash };
  $('#modal').dataset.viewId = modal.id;
  $('#modal-title').textContent = modal.title;
  $('#modal-body').innerHTML = modal.html;
  $('#modal-problem').hidden = true;
  const submit = $('#modal-submit');
  submit.hidden = modal.submit === null;
  submit.textContent = modal.submit ?? 'Submit';
  submit.disabled = false;
  $('#modal-close').textContent = modal.close;
  formatTimes($('#modal-body'));
  const first = $('input, textarea, select', $('#modal-body'));
  if (first) first.focus();
}

let refreshing = null;
let again = false;

async function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      const query = new URLSearchParams({ user: page.persona, conversation: page.conversation });
      const state = await getJson(`/ui/state?${query}`);
      drawSidebar(state);
      drawConversation(state);
      drawModal(state.modal);
      $('#connection').hidden = state.connected;
    } while (again);
  })();
  try {
    await refreshing;
  } catch (error) {
    toast(`Could not reach the playground: ${error.message}`);
  } finally {
    refreshing = null;
  }
}

let refreshTimer;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 40);
}

// ---- Navigation and personas.

async function go(conversation) {
  page.conversation = conversation;
  if (location.hash !== `#${conversation}`) history.replaceState(null, '', `#${conversation}`);
  await refresh();
  if (conversation === 'home') {
    const answer = await post('/ui/home', {});
    if (!answer.ok) toast(`The Home tab could not be opened: ${answer.error}`);
  }
}

async function switchPersona(id) {
  page.persona = id;
  localStorage.setItem('vidops-playground-persona', id);
  if (page.conversation.startsWith('D')) page.conversation = page.workspace.defaultChannel;
  page.modal = { id: '', hash: '' };
  await go(page.conversation);
}

// ---- The composer and its command suggestions.

function commandWords(usage) {
  return usage.replace(/^\/vidops\s*/, '');
}

function matchingCommands(value) {
  if (!value.startsWith('/')) return [];
  const command = value.split(' ')[0];
  if (!'/vidops'.startsWith(command)) return [];
  const rest = value.slice(command.length).trimStart().replace(/\s+/g, ' ').toLowerCase();
  return page.workspace.commands
    .filter((c) => commandWords(c.usage).toLowerCase().startsWith(rest))
    .slice(0, 12);
}

function drawSuggestions() {
  const list = $('#suggestions');
  const matches = matchingCommands($('#composer-input').value);
  if (matches.length === 0) {
    list.hidden = true;
    page.suggestion = -1;
    return;
  }
  page.suggestion = Math.min(page.suggestion, matches.length - 1);
  list.replaceChildren(
    ...matches.map((c, i) => {
      const li = document.createElement('div');
      li.setAttribute('role', 'option');
      li.dataset.usage = c.usage;
      li.setAttribute('aria-selected', String(i === page.suggestion));
      const usage = document.createElement('code');
      usage.textContent = c.usage;
      const summary = document.createElement('span');
      summary.textContent = c.summary;
      li.append(usage, ' ', summary);
      return li;
    }),
  );
  list.hidden = false;
}

/** The literal words of a usage line, up to its first placeholder: what gets typed for you. */
function fill(usage) {
  const words = [];
  for (const word of usage.split(' ')) {
    if (/^[<[]/.test(word)) break;
    words.push(word);
  }
  $('#composer-input').value = `${words.join(' ')} `;
  page.suggestion = -1;
  drawSuggestions();
  $('#composer-input').focus();
}

async function send(text) {
  const channel = page.conversation;
  if (text.startsWith('/')) {
    if (!/^\/vidops(\s|$)/.test(text)) {
      toast(`${text.split(' ')[0]} is not a command here: only /vidops is installed in this playground.`);
      return;
    }
    const answer = await post('/ui/command', { channel, text });
    if (!answer.ok) toast(`The command did not reach vidops: ${answer.error}`);
    return;
  }
  await post('/ui/message', { channel, text });
}

// ---- Buttons, menus and their confirm dialogs.

async function confirmed(element) {
  const confirm = element.parentElement?.querySelector(':scope > .confirm');
  if (!confirm) return true;
  const dialog = $('#confirm-dialog');
  $('#confirm-title').innerHTML = $('.confirm-title', confirm).innerHTML;
  $('#confirm-text').innerHTML = $('.confirm-text', confirm).innerHTML;
  $('#confirm-yes').textContent = $('.confirm-yes', confirm).textContent;
  $('#confirm-no').textContent = $('.confirm-no', confirm).textContent;
  $('#confirm-yes').className = `btn ${confirm.dataset.style === 'danger' ? 'danger' : 'primary'}`;
  formatTimes(dialog);
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
  });
}

function collectInput(root) {
  const input = {};
  const put = (el, value) => {
    const block = el.dataset.blockId;
    const action = el.dataset.actionId;
    input[block] ??= {};
    input[block][action] = value;
  };
  for (const el of $$('[data-kind]', root)) {
    const kind = el.dataset.kind;
    if (kind === 'checkboxes') {
      const values = input[el.dataset.blockId]?.[el.dataset.actionId] ?? [];
      put(el, el.checked ? [...values, el.value] : values);
    } else if (kind === 'radio_buttons') {
      if (el.checked) put(el, el.value);
      else if (input[el.dataset.blockId]?.[el.dataset.actionId] === undefined) put(el, null);
    } else if (kind === 'file_input') {
      put(el, JSON.parse(el.dataset.fileIds ?? '[]'));
    } else {
      put(el, el.value);
    }
  }
  return input;
}

async function act(element, selected) {
  if (!(await confirmed(element))) {
    if (element.tagName === 'SELECT') element.value = '';
    return;
  }
  const container = element.closest('[data-container]');
  const inModal = element.closest('#modal');
  const body = {
    actionId: element.dataset.actionId,
    blockId: element.dataset.blockId,
    ...(selected === undefined ? {} : { selected }),
  };
  if (inModal) {
    body.viewId = inModal.dataset.viewId;
    body.input = collectInput(inModal);
  } else if (container?.dataset.container === 'view') {
    body.viewId = container.dataset.viewId;
  } else if (container) {
    body.channel = container.dataset.channel;
    body.ts = container.dataset.ts;
    body.ephemeral = container.dataset.ephemeral === 'true';
  }
  element.disabled = true;
  const answer = await post('/ui/action', body);
  element.disabled = false;
  if (!answer.ok) toast(`vidops did not take that: ${answer.error}`);
}

// ---- Shortcuts: a message's "More actions" menu, and the global ones by the composer.

function closeShortcutMenu() {
  for (const menu of $$('.shortcut-menu')) menu.remove();
}

function openShortcutMenu(anchor, type, target) {
  closeShortcutMenu();
  const list = (page.workspace.shortcuts ?? []).filter((s) => s.type === type);
  if (list.length === 0) return;
  const menu = document.createElement('div');
  menu.className = 'shortcut-menu';
  menu.setAttribute('role', 'menu');
  for (const shortcut of list) {
    const item = document.createElement('button');
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.textContent = shortcut.name;
    item.dataset.shortcut = shortcut.callbackId;
    item.addEventListener('click', async (event) => {
      event.stopPropagation();
      closeShortcutMenu();
      const answer = await post('/ui/shortcut', { callbackId: shortcut.callbackId, ...target });
      if (!answer.ok) toast(`The shortcut did not reach vidops: ${answer.error}`);
    });
    menu.append(item);
  }
  anchor.after(menu);
}

// ---- The modal.

function showErrors(errors) {
  let first = null;
  for (const box of $$('[data-error-for]', $('#modal-body'))) {
    const html = errors[box.dataset.errorFor];
    box.hidden = html === undefined;
    box.innerHTML = html ?? '';
    if (html !== undefined) first ??= box;
  }
  // The first field to fix comes into view, as in Slack.
  first?.closest('.block')?.scrollIntoView({ block: 'center' });
}

async function submitModal(event) {
  event.preventDefault();
  const form = $('#modal');
  const submit = $('#modal-submit');
  submit.disabled = true;
  $('#modal-problem').hidden = true;
  const answer = await post('/ui/submit', { viewId: form.dataset.viewId, input: collectInput(form) });
  submit.disabled = false;
  if (answer.ok) {
    showErrors({});
    await refresh();
  } else if (answer.outcome === 'failed') {
    $('#modal-problem').textContent = answer.error;
    $('#modal-problem').hidden = false;
  } else {
    showErrors(answer.errors ?? {});
  }
}

async function closeModal() {
  const id = $('#modal').dataset.viewId;
  if (id) await post('/ui/close', { viewId: id });
  await refresh();
}

async function upload(input) {
  const ids = [];
  const names = [];
  for (const file of input.files) {
    const answer = await post('/ui/files', {
      name: file.name,
      mimetype: file.type || 'application/octet-stream',
      content: await base64Of(file),
    });
    if (!answer.ok) {
      toast(`The upload failed: ${answer.error}`);
      return;
    }
    ids.push(answer.id);
    names.push(answer.name);
  }
  input.dataset.fileIds = JSON.stringify(ids);
  const list = input.parentElement.querySelector('.uploaded');
  list.replaceChildren(
    ...names.map((name) => {
      const li = document.createElement('li');
      li.textContent = `📎 ${name}`;
      return li;
    }),
  );
}

// ---- Start.

async function start() {
  page.workspace = await getJson('/ui/workspace');
  const select = $('#persona');
  select.replaceChildren(
    ...page.workspace.personas.map((p) => {
      const option = document.createElement('option');
      option.value = p.id;
      option.textContent = p.label;
      return option;
    }),
  );
  const saved = localStorage.getItem('vidops-playground-persona');
  page.persona = page.workspace.personas.some((p) => p.id === saved) ? saved : page.workspace.personas[0].id;
  select.value = page.persona;
  $('#video-api').textContent = page.workspace.videoApi;
  if (page.workspace.realService) {
    const banner = $('#real-service');
    banner.textContent = `This playground acts on the REAL video service at ${page.workspace.realService}: every change approved here is made there, and this page acts as anyone, leads included.`;
    banner.hidden = false;
  }

  select.addEventListener('change', () => switchPersona(select.value));
  // The language switcher runs `/vidops lang fa|en` as the persona, in the open conversation.
  const language = $('#language');
  language.addEventListener('change', async () => {
    const chosen = language.value;
    language.value = '';
    if (chosen !== '') await send(`/vidops lang ${chosen}`);
  });
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a[data-conversation], a.channel-link[data-channel]');
    if (link) {
      event.preventDefault();
      go(link.dataset.conversation ?? link.dataset.channel);
      return;
    }
    const more = event.target.closest('button[data-more]');
    if (more) {
      event.preventDefault();
      const message = more.closest('[data-container=message]');
      openShortcutMenu(more, 'message', { channel: message.dataset.channel, ts: message.dataset.ts });
      return;
    }
    if (!event.target.closest('.shortcut-menu')) closeShortcutMenu();
    const button = event.target.closest('button[data-action-id]');
    if (button) {
      event.preventDefault();
      act(button);
    }
    const option = event.target.closest('#suggestions [role=option]');
    if (option) fill(option.dataset.usage);
  });
  document.addEventListener('change', (event) => {
    const menu = event.target.closest('select.menu[data-action-id]');
    if (menu && menu.value !== '') act(menu, menu.value);
    const file = event.target.closest('input[type=file][data-kind=file_input]');
    if (file) upload(file);
  });

  const input = $('#composer-input');
  input.addEventListener('input', drawSuggestions);
  input.addEventListener('keydown', (event) => {
    const options = $$('#suggestions [role=option]');
    if ($('#suggestions').hidden || options.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      page.suggestion = (page.suggestion + step + options.length) % options.length;
      drawSuggestions();
    } else if ((event.key === 'Tab' || event.key === 'Enter') && page.suggestion >= 0) {
      event.preventDefault();
      fill(options[page.suggestion].dataset.usage);
    } else if (event.key === 'Escape') {
      $('#suggestions').hidden = true;
    }
  });
  $('#composer').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text === '') return;
    input.value = '';
    drawSuggestions();
    await send(text);
  });
  const globalButton = $('#shortcuts-button');
  globalButton.hidden = !(page.workspace.shortcuts ?? []).some((s) => s.type === 'global');
  globalButton.addEventListener('click', (event) => {
    event.stopPropagation();
    openShortcutMenu(globalButton, 'global', {});
  });
  $('#modal').addEventListener('submit', submitModal);
  $('#modal-close').addEventListener('click', closeModal);
  $('#modal-x').addEventListener('click', closeModal);

  const events = new EventSource('/ui/events');
  events.addEventListener('change', scheduleRefresh);
  events.addEventListener('open', scheduleRefresh);

  const fromHash = decodeURIComponent(location.hash.slice(1));
  await go(fromHash || page.workspace.defaultChannel);
  document.body.dataset.ready = 'true';
}

start().catch((error) => toast(`The playground could not start: ${error.message}`));
