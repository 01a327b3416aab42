// The server's JSON API (docs/serve.md). The token cookie set by the first page load
// authenticates every call.

export class ApiError extends Error {
  constructor(status, body) {
    super(body.error || `HTTP ${status}`);
    this.status = status;
    this.hint = body.hint || '';
  }
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    for (const x of Array.isArray(v) ? v : [v]) q.append(k, String(x));
  }
  return q.toString();
}

async function check(res) {
  if (res.ok) return res;
  let body = {};
  try { body = await res.json(); } catch (e) { /* not JSON */ }
  throw new ApiError(res.status, body);
}

// A request that failed for a passing reason is made again, at most kAttempts times in all:
// when the connection failed (a keep-alive connection the server closed as the request left,
// a server restarting) and when a full server answered 429 (after its Retry-After, else a
// growing pause). Asking twice does no harm: every route reads, opens an already open trace
// again (the same one), or saves a cfg, which the second time answers 409 (the file exists)
// rather than write another file when the first answer was lost. Other errors are the answer.
const kAttempts = 3;

async function fetchRetrying(path, init) {
  for (let attempt = 1; ; ++attempt) {
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      if (attempt >= kAttempts) throw e;
      await pause(200 * attempt);
      continue;
    }
    if (res.status !== 429 || attempt >= kAttempts) return res;
    const after = Number(res.headers.get('Retry-After'));
    await pause(after > 0 ? Math.min(after, 5) * 1000 : 250 * attempt);
  }
}

function pause(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

export async function getJson(path, params = {}) {
  return (await check(await fetchRetrying(`${path}?${query(params)}`, { credentials: 'same-origin' }))).json();
}

// POSTs a JSON body; returns the Response (already checked).
export async function post(path, body) {
  const res = await fetchRetrying(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return check(res);
}

export async function postJson(path, body) {
  return (await post(path, body)).json();
}

// Opens a trace, calling onProgress(fraction) while the server loads it.
export async function openTrace(path, onProgress) {
  let done = false;
  const poll = async () => {
    while (!done) {
      await new Promise((r) => setTimeout(r, 150));
      if (done) break;
      try {
        const p = await getJson('/api/progress', { trace: path });
        if (p.loading && p.total > 0) onProgress(p.done / p.total);
      } catch (e) { /* the load itself reports errors */ }
    }
  };
  poll();
  try {
    return await postJson('/api/open', { path });
  } finally {
    done = true;
  }
}

// `task` with at most one run in flight: calls made during a run become one more run after it,
// so a server slower than the calls never gets a growing queue of requests.
export function oneAtATime(task) {
  let running = false, again = false;
  return async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await task();
      } while (again);
    } finally {
      running = false;
    }
  };
}

// One frame of a timeline window: {window, layout: {width, height, area, rows}, png (base64)}.
// The core renders the image at the window's pixel size; only its pixels travel.
export async function timelineFrame(body) {
  return (await post('/api/timeline', { ...body, format: 'frame' })).json();
}

// An exported image (png or svg) as a Blob.
export async function timelineImage(body, format) {
  return (await post('/api/timeline', { ...body, format })).blob();
}

// Offers `blob` to the user as a download named `name`.
export function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
