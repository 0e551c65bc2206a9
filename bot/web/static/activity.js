// The page as the channel's Discord Activity (docs/discord.md, "Inside
// Discord"), imported by app.js only when Discord frames it. Discord's SDK
// (served by the Activity's server alone) has Discord's client authorize
// the application for the player: a code, which the server exchanges for
// them with the application's client secret (POST /web/activity; the
// secret never comes here) and answers with a session. Every request of
// the page carries it from then on; the page plays the channel the
// Activity was opened in, as that player, with the same clicks as on the
// web.

// carry adds the session to every request of the page to its server: the
// page's own (app.js) and the map's (map.js) alike.
function carry(session) {
  const plain = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (url.origin !== location.origin) return plain(input, init);
    const headers = new Headers((init && init.headers) || (typeof input === "string" ? undefined : input.headers));
    headers.set("X-Risk-Activity", session);
    return plain(input, { ...init, headers });
  };
}

// start signs the player in and readies the page's state (app.js) for its
// setup: the channel, and who plays.
export async function start() {
  document.body.dataset.activity = "1";
  const { DiscordSDK } = await import("/static/discord-sdk.mjs");
  const first = await fetch("/web/activity");
  const { client_id: clientID } = await first.json();
  const sdk = new DiscordSDK(clientID);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({ client_id: clientID, response_type: "code", state: "", prompt: "none", scope: ["identify"] });
  const res = await fetch("/web/activity", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code, instance: sdk.instanceId }) });
  const s = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(s.error || res.statusText);
  await sdk.commands.authenticate({ access_token: s.access_token });
  carry(s.session);
  state.activity = { channel: s.channel, name: s.user.name, sdk };
  state.as = s.user.id;
  // Once the page is set up: the match as it stands (the answer brings
  // the map, which the page docks to play on).
  setTimeout(() => run("/risk show status"), 0);
}
