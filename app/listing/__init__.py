"""Roadiz's collections: what `/api/<plural>`, their archives, translations, tags and documents
answer, and how. A map, in the order a request meets the modules:

- `params.py`: the query parameters, read as API Platform reads them (pagination, order,
  `properties[]`), refused with a 400 naming the parameter when wrong; `properties.py` the
  property filter.
- `filters.py`: each filter, as Roadiz spells it, compiled to a store filter; `titles.py` turns
  a partial match into the ids of the sources that may hold it (the title keys);
  `tag_conditions.py` folds tag conditions into one shape.
- `sources.py`: node-source collections (`/api/<plural>`, `/api/nodes_sources`): a page and its
  total, from the materialised documents when the request is plain, else along the index the
  query plan names; `archives.py` their archives.
- Plain requests (docs/performance.md, collections): `plain.py` decides which are plain, `scopes.py`
  what they list (a Scope); `calendar.py` counts them and gives their archives from the calendars;
  `listings.py` pages them from the listings, which `walk.py` reads as entries; `totals.py` counts
  a span of dates or a range of positions.
- `resources.py` (translations, tags, documents; `documents.py` how a document shows),
  `hydra.py` (hydra:view, hydra:search) and `openapi.py` (their OpenAPI schemas).
"""
