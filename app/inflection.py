"""English plurals as Roadiz names its collections: the snake case of the Doctrine Inflector
English plural of the type name (`BlogPost` -> `BlogPosts` -> `blog_posts`; `people`,
`categories`, `media`, `news`). The same word, the same plural:
a front-end written for Roadiz finds `/api/people` here too (roadiz-read-surface.md §2).

The rules and word lists are those of doctrine/inflector's English ruleset (MIT), written again
here as data and checked against its 351 sample words. The order of its lookups is kept: a word
that does not change (the whole word), then an irregular word (the whole word), then the first
regular rule whose pattern matches its end."""

from __future__ import annotations

import re

# Words that are their own plural (matched against the whole word, case-insensitively).
_UNCHANGED = re.compile(
    r"(?:\w+media|advice|aircraft|amoyese|art|audio|baggage|bison|borghese|bream|breeches|"
    r"britches|buffalo|butter|cantus|carp|cattle|chassis|clippers|clothing|coal|cod|coitus|"
    r"compensation|congoese|contretemps|coreopsis|corps|cotton|data|debris|deer|diabetes|djinn|"
    r"education|eland|elk|emoji|equipment|evidence|faroese|feedback|fish|flounder|flour|"
    r"foochowese|food|furniture|gallows|genevese|genoese|gilbertese|gold|headquarters|herpes|"
    r"hijinks|homework|hottentotese|impatience|information|innings|jackanapes|jeans|jedi|kin|"
    r"kiplingese|knowledge|kongoese|leather|love|lucchese|luggage|mackerel|maltese|management|"
    r"metadata|mews|money|moose|mumps|music|nankingese|news|nexus|niasese|nutrition|offspring|"
    r"oil|patience|pekingese|piedmontese|pincers|pistoiese|plankton|pliers|pokemon|police|"
    r"polish|portuguese|proceedings|progress|rabies|rain|research|rhinoceros|rice|salmon|sand|"
    r"sarawakese|scissors|sea[- ]bass|series|shavese|shears|sheep|siemens|silk|sms|soap|"
    r"social media|spam|species|staff|sugar|swine|talent|toothpaste|traffic|travel|trousers|"
    r"trout|tuna|us|vermontese|vinegar|weather|wenchowese|wheat|whiting|wildebeest|wood|wool|"
    r"yengeese|people|trivia|\w+ware|media)",
    re.IGNORECASE,
)

# Whole words with a plural of their own.
_IRREGULAR = dict(
    pair.split("=")
    for pair in (
        "atlas=atlases axis=axes axe=axes beef=beefs blouse=blouses brother=brothers cafe=cafes "
        "cave=caves chateau=chateaux niveau=niveaux child=children canvas=canvases "
        "cookie=cookies brownie=brownies corpus=corpuses cow=cows criterion=criteria "
        "curriculum=curricula demo=demos domino=dominoes echo=echoes epoch=epochs foot=feet "
        "fungus=fungi ganglion=ganglions gas=gases genie=genies genus=genera goose=geese "
        "graffito=graffiti hippopotamus=hippopotami hoof=hoofs human=humans iris=irises "
        "larva=larvae leaf=leaves lens=lenses loaf=loaves man=men medium=media "
        "memorandum=memoranda money=monies mongoose=mongooses motto=mottoes move=moves "
        "mythos=mythoi niche=niches nucleus=nuclei numen=numina occiput=occiputs "
        "octopus=octopuses opus=opuses ox=oxen passerby=passersby penis=penises person=people "
        "plateau=plateaux runner-up=runners-up safe=safes sex=sexes sieve=sieves "
        "soliloquy=soliloquies son-in-law=sons-in-law syllabus=syllabi testis=testes "
        "thief=thieves tooth=teeth tornado=tornadoes trilby=trilbys turf=turfs valve=valves "
        "volcano=volcanoes abuse=abuses avalanche=avalanches cache=caches emphasis=emphases "
        "foe=foes grave=graves hoax=hoaxes neurosis=neuroses save=saves wave=waves oasis=oases "
        "zombie=zombies"
    ).split()
)

# (pattern of the word's end, replacement): the first that matches applies.
_REGULAR = [
    (re.compile(pattern, re.IGNORECASE), replacement)
    for pattern, replacement in (
        (r"(s)tatus$", r"\1tatuses"),
        (r"(quiz)$", r"\1zes"),
        (r"^(ox)$", r"\1en"),
        (r"([m|l])ouse$", r"\1ice"),
        (r"(matr|vert|ind)(ix|ex)$", r"\1ices"),
        (r"(x|ch|ss|sh)$", r"\1es"),
        (r"([^aeiouy]|qu)y$", r"\1ies"),
        (r"(hive|gulf)$", r"\1s"),
        (r"(?:([^f])fe|([lr])f)$", r"\1\2ves"),
        (r"sis$", "ses"),
        (r"([ti])um$", r"\1a"),
        (r"(tax)on$", r"\1a"),
        (r"(c)riterion$", r"\1riteria"),
        (r"(p)erson$", r"\1eople"),
        (r"(m)an$", r"\1en"),
        (r"(c)hild$", r"\1hildren"),
        (r"(f)oot$", r"\1eet"),
        (r"(buffal|her|potat|tomat|volcan)o$", r"\1oes"),
        (r"(alumn|bacill|cact|foc|fung|nucle|radi|stimul|syllab|termin|vir)us$", r"\1i"),
        (r"us$", "uses"),
        (r"(alias)$", r"\1es"),
        (r"(analys|ax|cris|test|thes)is$", r"\1es"),
        (r"s$", "s"),
        (r"$", "s"),
    )
]


def pluralize(word: str) -> str:
    """`blog_post` -> `blog_posts`, `person` -> `people`, `news` -> `news`."""
    if not word or _UNCHANGED.fullmatch(word):
        return word
    irregular = _IRREGULAR.get(word.lower())
    if irregular is not None:
        return irregular[0].upper() + irregular[1:] if word[0].isupper() else irregular
    for pattern, replacement in _REGULAR:
        if pattern.search(word):
            return pattern.sub(replacement, word, count=1)  # an unmatched group is empty
    return word
