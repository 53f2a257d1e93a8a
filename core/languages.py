"""Spoken languages: which language a file names (ISO 639 code, English name) and how well the person speaks it.

Names and codes come from ``langcodes`` with ``language-data`` (CLDR names in every language, shipped with the
package): "fr", "French", "Français", "Inglés", "英語" and "Deutsch" all resolve. Fluency is read onto one scale, the
five levels recruiters know from LinkedIn (see ``FLUENCY_LEVELS`` and ``FLUENCY_WORDS``).
``is_language_name`` (pycountry's English names) stays the strict test the Prog.AI parser uses to recognise a line
of languages.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

import langcodes
import pycountry
from language_data import names as _language_names_data

from core.text import clean_text

__all__ = [
    "ELEMENTARY",
    "FLUENCY_LEVELS",
    "FLUENCY_WORDS",
    "FULL_PROFESSIONAL",
    "LIMITED_WORKING",
    "NATIVE",
    "PROFESSIONAL_WORKING",
    "SpokenLanguage",
    "fluency_level",
    "is_language_name",
    "read_spoken_language",
    "resolve_language",
]

# The fluency scale, highest first (LinkedIn's five proficiency levels; "at least professional working" is a prefix
# of this tuple).
NATIVE = "native"  # native or bilingual
FULL_PROFESSIONAL = "full_professional"
PROFESSIONAL_WORKING = "professional_working"
LIMITED_WORKING = "limited_working"
ELEMENTARY = "elementary"
FLUENCY_LEVELS = (NATIVE, FULL_PROFESSIONAL, PROFESSIONAL_WORKING, LIMITED_WORKING, ELEMENTARY)

# The words real files use, in English and other languages, and the level each means. CEFR levels: C2 and C1 are
# full professional (C2 is mastery, not a mother tongue), B2 professional working, B1 limited working, A2/A1
# elementary. "Intermediate" is limited working, "advanced" and "fluent" full professional, "bilingual" native (as
# LinkedIn's "native or bilingual"); a bare "professional" is professional working.
FLUENCY_WORDS: dict[str, str] = {
    **dict.fromkeys(
        (
            "native", "native speaker", "native language", "native or bilingual", "native or bilingual proficiency",
            "native proficiency", "mother tongue", "mothertongue", "first language", "bilingual",
            "bilingual proficiency",
            "langue maternelle", "maternelle", "natif", "native", "bilingue", "langue natale", "muttersprache",
            "muttersprachlich", "muttersprachler", "muttersprachlerin", "zweisprachig", "lengua materna", "nativo",
            "nativa", "idioma nativo", "língua materna", "lingua materna", "madrelingua", "lingua madre", "moedertaal",
            "modersmål", "morsmål", "modersmal", "äidinkieli", "język ojczysty", "ojczysty", "rodzimy", "rodilý mluvčí",
            "родной", "родной язык", "母国語", "母語", "ネイティブ", "母语", "原生", "원어민", "모국어",
        ),
        NATIVE,
    ),
    **dict.fromkeys(
        (
            "full professional", "full professional proficiency", "fluent", "fluently", "fluency", "fully fluent",
            "advanced", "proficient", "excellent", "very good", "expert", "master", "mastery", "near native",
            "near-native", "c1", "c2",
            "experto", "experta", "esperto", "esperta", "experte", "courant", "couramment", "avancé", "fließend",
            "verhandlungssicher",
            "sehr gut", "sehr gute kenntnisse", "fluido", "fluida", "avanzado", "avanzada", "dominio", "avançado",
            "fluente", "vloeiend", "flytande", "flytende", "sujuva", "biegły", "biegle", "plynně", "свободно",
            "свободный", "流暢", "流利", "上級", "ビジネス上級", "高级", "精通", "능통", "유창",
        ),
        FULL_PROFESSIONAL,
    ),
    **dict.fromkeys(
        (
            "professional", "professional working", "professional working proficiency", "working proficiency",
            "full working proficiency", "business", "business level", "business fluent", "business fluency",
            "good", "upper intermediate", "upper-intermediate", "b2", "professionnel", "bon", "bonne", "bon niveau",
            "gut", "gute kenntnisse", "bueno", "buena", "profesional", "ビジネスレベル", "ビジネス", "商务", "商务英语",
            "비즈니스",
        ),
        PROFESSIONAL_WORKING,
    ),
    **dict.fromkeys(
        (
            "limited working", "limited working proficiency", "intermediate", "conversational", "conversation",
            "b1", "working knowledge", "moderate", "fair", "intermédiaire", "moyen", "mittel", "mittelstufe",
            "intermedio", "intermedia", "intermediário", "intermediario", "conversacional", "中級", "日常会話",
            "中级", "日常会话", "중급",
        ),
        LIMITED_WORKING,
    ),
    **dict.fromkeys(
        (
            "elementary", "elementary proficiency", "basic", "basics", "basic knowledge", "beginner", "a1", "a2",
            "notions", "limited", "débutant", "débutante", "élémentaire", "scolaire", "grundkenntnisse",
            "anfänger", "básico", "basico", "básica", "principiante", "elementare", "base", "初級", "入門", "初级",
            "基礎", "基础", "초급",
        ),
        ELEMENTARY,
    ),
}  # fmt: skip
FLUENCY_WORDS = {word.casefold(): level for word, level in FLUENCY_WORDS.items()}  # "fließend" is read casefolded

_LATIN_PHRASES = sorted((w for w in FLUENCY_WORDS if w.isascii() or re.search(r"[a-zà-ÿ]", w)), key=len, reverse=True)
_OTHER_PHRASES = sorted((w for w in FLUENCY_WORDS if w not in _LATIN_PHRASES), key=len, reverse=True)
# Latin-script words match whole words only ("fair" is not in "affairs"); CJK phrases have no spaces to match on.
_FLUENCY_RE = re.compile(
    "|".join([r"(?<!\w)" + re.escape(w) + r"(?!\w)" for w in _LATIN_PHRASES] + [re.escape(w) for w in _OTHER_PHRASES])
)


def fluency_level(text: str) -> str:
    """The level of ``FLUENCY_LEVELS`` a fluency text means ("Native speaker", "C1", "Muttersprache"); "" if none.

    The whole text first, then the first known word or phrase in it ("Professional working proficiency (C1)" is
    professional working: the words come before the code).
    """
    if not isinstance(text, str):
        return ""
    low = re.sub(r"\s+", " ", clean_text(text).casefold()).strip(" .;,")
    if not low or len(low) > 200:
        return ""
    if low in FLUENCY_WORDS:
        return FLUENCY_WORDS[low]
    m = _FLUENCY_RE.search(low)
    return FLUENCY_WORDS[m.group(0)] if m else ""


# CLDR's English names are the display names, except where English-speaking recruiters write another name.
_ENGLISH_NAME_OVERRIDES = {"bn": "Bengali"}
_TAG_RE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$")
_NAME_TRIE = "und/name_to_language"  # language-data's index of language names in every language


def _english_name(code: str) -> str:
    return _ENGLISH_NAME_OVERRIDES.get(code) or langcodes.Language.make(language=code).language_name("en")


def _code_of_tag(text: str) -> str:
    """The language subtag of a BCP 47 tag ("fr", "pt_BR", "eng"), or "" when it names no known language."""
    try:
        tag = langcodes.get(text.replace("_", "-"))
    except (langcodes.tag_parser.LanguageTagError, ValueError):
        return ""
    code = tag.language or ""
    if not code or code in ("und", "zxx", "mul", "mis") or not tag.is_valid():
        return ""
    return code


def _code_of_name(text: str, exact: bool) -> str:
    """The language a name means in English or any other language ("Hindi", "Inglés", "日本語"), or "".

    language-data also matches a name that merely starts with a language's name; unless ``exact``, that is kept
    when the name's first words are the language's ("Japanese language"), never inside a word ("JavaScript" is not
    Javanese, nor "Bilingual" Blin). English names are looked up first: the all-languages index leaves out names that
    are ambiguous across languages ("Hindi" is not in it).
    """
    key = _language_names_data.normalize_name(text)
    for in_language in ("en", "und"):
        code = _language_names_data.name_to_code("language", key, in_language)
        if code is None:
            continue
        trie = _language_names_data.TRIES[f"{in_language}/name_to_language"]  # loaded by name_to_code
        if key not in trie:
            prefixes = trie.prefixes(key)
            longest = max(prefixes, key=len) if prefixes else ""
            if exact or not longest or key[len(longest) : len(longest) + 1].isalnum():
                continue
        return langcodes.get(code).language or ""
    return ""


@functools.lru_cache(maxsize=4096)
def resolve_language(text: str, *, exact: bool = False) -> tuple[str, str] | None:
    """(ISO 639 code, English name) of a language written as a code or a name in any language; None if unknown.

    The code is the shortest ISO 639 code (639-1 when there is one: "fr"; else 639-3: "yue"). ``exact``: the whole
    text is the name, not just its first words.
    """
    if not isinstance(text, str):
        return None
    text = clean_text(text).strip(" .;,")
    if not text or len(text) > 60 or text.casefold() in FLUENCY_WORDS:
        return None
    code = _code_of_tag(text) if _TAG_RE.match(text) else ""
    code = code or _code_of_name(text, exact)
    if not code:
        return None
    return code, _english_name(code)


class SpokenLanguage(NamedTuple):
    code: str  # "" when the language is not known: ``name`` is then the text as written
    name: str
    fluency: str  # one of FLUENCY_LEVELS, or ""


_PARENTHESES_RE = re.compile(r"^(.*?)\s*[(\[]([^()\[\]]*)[)\]]\s*$")
_SEPARATOR_RE = re.compile(r"\s+[-–—|/]\s+|\s*[:–—|,;]\s*")


# A language and its fluency in words ("Native English speaker, full professional proficiency") fit in this many
# characters; a longer text is not cut into them word by word, which costs time quadratic in its words.
MAX_WORDS_SPLIT_CHARS = 300


def _split_words(text: str) -> tuple[str, str] | None:
    """ "English fluent" / "Native English" → (language, the rest), when some leading or trailing words are one."""
    if len(text) > MAX_WORDS_SPLIT_CHARS:
        return None
    words = text.split()
    for k in range(len(words) - 1, 0, -1):
        head, tail = " ".join(words[:k]), " ".join(words[k:])
        if resolve_language(head, exact=True):
            return head, tail
        head, tail = " ".join(words[-k:]), " ".join(words[:-k])
        if resolve_language(head, exact=True):
            return head, tail
    return None


@functools.lru_cache(maxsize=4096)  # a worker reads the same few hundred language texts over and over
def read_spoken_language(language: str, fluency: str = "") -> SpokenLanguage | None:
    """A spoken language from a file's language text and optional fluency text; None when there is no text.

    The language text may carry the fluency itself: "Japanese – Intermediate", "English (fluent)", "German: C1",
    "English fluent". A fluency text that matches no level leaves ``fluency`` empty; a language no data set knows is
    kept as written with an empty code.
    """
    text = clean_text(language) if isinstance(language, str) else ""
    if not text:
        return None
    level = fluency_level(fluency) if isinstance(fluency, str) else ""
    name, rest = text, ""
    if m := _PARENTHESES_RE.match(text):
        name, rest = m.group(1), m.group(2)
    elif len(parts := _SEPARATOR_RE.split(text, maxsplit=1)) == 2 and parts[0]:
        name, rest = parts
    elif not resolve_language(text, exact=True) and (split := _split_words(text)):
        name, rest = split
    resolved = resolve_language(name)
    if resolved is None and rest and resolve_language(rest):  # "(Native) English", "Muttersprache: Deutsch"
        name, rest = rest, name
        resolved = resolve_language(name)
    level = level or fluency_level(rest)
    if resolved is None:
        return SpokenLanguage("", text if not level else name, level)
    return SpokenLanguage(resolved[0], resolved[1], level)


# --- The strict English-name test of the Prog.AI parser ---------------------------------------------------------------

_LANGUAGE_ALIASES = frozenset(
    {
        "greek",
        "swahili",
        "malay",
        "punjabi",
        "nepali",
        "farsi",
        "mandarin",
        "cantonese",
        "hokkien",
        "taiwanese",
        "shanghainese",
        "flemish",
        "castilian",
        "brazilian portuguese",
        "american sign language",
        "sign language",
        "uzbek",
        "pashto",
        "azerbaijani",
        "albanian",
        "quechua",
        "oromo",
        "estonian",
        "latvian",
        "mongolian",
        "konkani",
        "rajasthani",
        "kurdish",
        "serbo-croatian",
    }
)


@functools.cache
def _language_names() -> frozenset[str]:
    names: set[str] = set(_LANGUAGE_ALIASES)
    for lang in pycountry.languages:
        if getattr(lang, "type", "L") not in ("L", "C", "H"):
            continue
        for attr in ("name", "common_name"):
            value = getattr(lang, attr, None)
            if not value:
                continue
            names.add(value.casefold())
            bare = re.sub(r"\s*\([^)]*\)\s*$", "", value).strip()
            if bare:
                names.add(bare.casefold())
            if bare.startswith("Modern "):
                names.add(bare[7:].casefold())
    return frozenset(names)


def is_language_name(s: str) -> bool:
    """True when ``s`` is the English name of a human language known to pycountry (or a common alias)."""
    s = clean_text(s)
    return bool(s) and len(s) <= 60 and s.casefold() in _language_names()
