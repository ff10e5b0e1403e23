// Runs calls of the official Roadiz JavaScript client against a running API and prints the outcome
// of each as one JSON document on stdout (tests/test_roadiz_client.py asserts on it).
//
//   node run.cjs <base URL, e.g. http://127.0.0.1:5000/api> '<JSON list of calls>'
//
// A call is {"name": ..., "method": <a RoadizApi method>, "args": [...]}; with "alternates": true
// the response also goes through getAlternateLinks. Each result carries what the method returned
// (`data`: the response body, or the value for methods that return no response), the status, the
// Link header, and `requests`: the path and query of every HTTP request the method sent. The
// package is CommonJS (dist/RoadizApi.js); NODE_PATH points at the installed node_modules.
'use strict';

const RoadizApi = require('@roadiz/abstract-api-client').default;

// fetchAllUrlsForLocale loops until a page has no hydra:next, and never ends on a page without
// hydra:totalItems: a budget of requests per call turns such a loop into an error.
const REQUEST_BUDGET = 100;

function describeError(error) {
  const response = error.response;
  return {
    message: String(error.message),
    status: response ? response.status : null,
    data: response ? response.data : null,
  };
}

async function run(api, call) {
  const outcome = await api[call.method](...(call.args || []));
  if (outcome && typeof outcome === 'object' && 'status' in outcome && 'headers' in outcome) {
    const result = {
      status: outcome.status,
      contentType: outcome.headers['content-type'] || null,
      link: outcome.headers.link || null,
      data: outcome.data,
    };
    if (call.alternates) result.alternates = api.getAlternateLinks(outcome);
    return result;
  }
  return { data: outcome };
}

async function main() {
  const [baseURL, plan] = process.argv.slice(2);
  const api = new RoadizApi(baseURL);
  let requests = [];
  api.axios.interceptors.request.use((config) => {
    if (requests.length >= REQUEST_BUDGET) {
      throw new Error(`more than ${REQUEST_BUDGET} requests in one call`);
    }
    requests.push(null); // replaced by the path actually sent, once known
    return config;
  });
  const sent = (request) => {
    const index = requests.indexOf(null);
    if (index >= 0) requests[index] = request && request.path ? request.path : '(not sent)';
  };
  api.axios.interceptors.response.use(
    (response) => {
      sent(response.request);
      return response;
    },
    (error) => {
      sent(error.request);
      return Promise.reject(error);
    },
  );
  const results = {};
  for (const call of JSON.parse(plan)) {
    requests = [];
    try {
      results[call.name] = await run(api, call);
    } catch (error) {
      results[call.name] = { error: describeError(error) };
    }
    results[call.name].requests = requests;
  }
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
