// Drives the official Roadiz JS client (@roadiz/abstract-api-client) against a running service:
// node roadiz_client.js <base url of /api>. Prints one JSON object of what the client saw.
const RoadizApi = require('@roadiz/abstract-api-client').default;

const api = new RoadizApi(process.argv[2]);

(async () => {
  const out = {};
  const page = await api.getWebResponseByPath('/about');
  out.webResponse = { title: page.data.item.title, type: page.data['@type'] };
  out.alternates = api.getAlternateLinks(page);
  out.urls = await api.fetchAllUrlsForLocale('en');
  const articles = await api.getNodesSources({
    'node.nodeTypeName': 'Article',
    'node.nodesTags.tag.tagName': ['culture', 'featured'],
    'order[publishedAt]': 'desc',
    _locale: 'en',
    itemsPerPage: 3,
  });
  out.nodesSources = {
    total: articles.data['hydra:totalItems'],
    ids: articles.data['hydra:member'].map((m) => m['@id']),
    next: articles.data['hydra:view']['hydra:next'],
  };
  const archives = await api.getArchivesForType('articles', { _locale: 'fr' });
  out.archives = archives.data['hydra:member'].map((m) => [m.year, Object.keys(m.months).length]);
  const found = await api.searchNodesSourcesByPath({ search: 'jazz', _locale: 'en' });
  out.search = found.data['hydra:member'].map((m) => [m.item['@id'], Object.keys(m.highlighting)]);
  console.log(JSON.stringify(out));
})().catch((error) => {
  const response = error.response ? JSON.stringify(error.response.data) : '';
  console.error(`${error} ${response}`);
  process.exit(1);
});
