// The HTTP API of `permuzzle serve`: every registry command, called by family and verb with
// its parameters as one JSON object (the CLI's names), and jobs with progress events.

export class ApiError extends Error {
  // `partial`: what a command stopped by its time limit knew (the JSON beside "error": a
  // partial histogram with "complete": false, the best solution with "optimal": false), or null.
  constructor(status, error, partial = null) {
    super(error.message || `HTTP ${status}`);
    this.partial = partial;
    this.status = status;
    this.kind = error.kind;
    this.position = error.position;
    this.input = error.input;
    this.describe = error.describe || this.message;
  }
}

async function parse(response) {
  let body;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(response.status, { message: `HTTP ${response.status} (no JSON)` });
  }
  if (!response.ok || body.error) {
    const { error, ...rest } = body;
    throw new ApiError(response.status, error || {}, Object.keys(rest).length ? rest : null);
  }
  return body;
}

// POST /api/v1/<family>/<verb>; timeLimit (seconds) asks the server for less than its limit.
export async function call(family, verb, params = {}, { timeLimit } = {}) {
  const query = timeLimit ? `?time_limit=${timeLimit}` : '';
  const response = await fetch(`/api/v1/${family}/${verb}${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(params),
  });
  return parse(response);
}

let commandsPromise = null;
export function commands() {
  if (!commandsPromise) commandsPromise = fetch('/api/v1/commands').then(parse);
  return commandsPromise;
}

// Starts a job; onProgress({phase, done, total, message}) as it runs. Returns {id, result,
// cancel}: `result` resolves with the command's JSON or rejects with an ApiError.
export async function job(family, verb, params, onProgress) {
  const response = await fetch('/api/v1/jobs', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ family, verb, params }),
  });
  const { id } = await parse(response);
  const result = new Promise((resolve, reject) => {
    const events = new EventSource(`/api/v1/jobs/${id}/events`);
    events.addEventListener('progress', (e) => onProgress && onProgress(JSON.parse(e.data)));
    events.addEventListener('result', (e) => {
      events.close();
      resolve(JSON.parse(e.data));
    });
    events.addEventListener('error', (e) => {
      events.close();
      if (e.data) {
        const data = JSON.parse(e.data);
        const { error, status, ...rest } = data;
        reject(new ApiError(status || 500, error || {}, Object.keys(rest).length ? rest : null));
      } else {
        reject(new ApiError(0, { message: 'lost the connection to the server' }));
      }
    });
  });
  const cancel = async () => {
    const r = await fetch(`/api/v1/jobs/${id}`, { method: 'DELETE' });
    return r.json();
  };
  return { id, result, cancel };
}

// One line for the page: the server's message with a caret under the position when known.
export function describeError(error) {
  if (error instanceof ApiError) return error.describe || error.message;
  return String(error && error.message ? error.message : error);
}
