"""The recogniser's character set: every letter of Europe's Latin
alphabets, digits, and the punctuation and symbols of documents.

Written to charset.txt one character a line, the format of PP-OCRv4's
dictionary, so models/ocr loadDict reads it unchanged: class 0 is the CTC
blank, then these characters in order, then the space (appended last).
"""


def _r(a, b):
    return [chr(c) for c in range(a, b + 1)]


def build():
    chars = []
    chars += _r(0x21, 0x7E)  # ASCII printable, no space
    # Latin-1 Supplement: symbols and letters, without NBSP (a space) and
    # the soft hyphen (invisible when not at a line end).
    chars += [c for c in _r(0xA1, 0xFF) if c not in ("\u00ad",)]
    chars += _r(0x100, 0x17F)  # Latin Extended-A
    chars += ["\u0218", "\u0219", "\u021A", "\u021B"]  # Romanian Ș ș Ț ț (comma below)
    chars += ["\u018F", "\u0259"]  # Ə ə (Azerbaijani)
    chars += [
        "\u20AC",  # €
        "\u2116",  # №
        "\u2013", "\u2014", "\u2012", "\u2010", "\u2212",  # dashes, minus
        "\u2018", "\u2019", "\u201A", "\u201C", "\u201D", "\u201E",  # quotes
        "\u2039", "\u203A",  # single guillemets
        "\u2022", "\u2026", "\u2030", "\u2032", "\u2033", "\u2122",  # • … ‰ ′ ″ ™
        "\u20A4", "\u20A3", "\u20BD", "\u20B4", "\u20BA",  # ₤ ₣ ₽ ₴ ₺
        "\u2190", "\u2192", "\u2191", "\u2193",  # arrows
        "\u2264", "\u2265", "\u2260", "\u2248", "\u221E",  # ≤ ≥ ≠ ≈ ∞
        "\u2713", "\u2715", "\u25A1", "\u25A0",  # ✓ ✕ □ ■ (forms)
    ]
    seen, out = set(), []
    for c in chars:
        if c not in seen and not c.isspace():
            seen.add(c)
            out.append(c)
    return out


CHARS = build()
INDEX = {c: i + 1 for i, c in enumerate(CHARS)}  # 0 is the blank
SPACE = len(CHARS) + 1
NUM_CLASSES = len(CHARS) + 2


def encode(text):
    """Class indices of text; characters outside the set raise KeyError."""
    return [SPACE if c == " " else INDEX[c] for c in text]


def covered(text):
    return all(c == " " or c in INDEX for c in text)


if __name__ == "__main__":
    print(len(CHARS), "characters,", NUM_CLASSES, "classes")
