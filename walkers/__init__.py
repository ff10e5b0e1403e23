"""Tree walkers: `walker.py` loads an item with its children up to a depth, one query per level for
every parent of that level; `definitions.py` is the extension point (per node type, code that
supplies an item's children instead of the stored ones); `article_feed.py` is the shipped
definition, an article feed block listing the newest matching articles."""
