"""Writes tests/golden/lookup_adapt.json: what Keras's IndexLookup.adapt learns, computed with NumPy as
Keras's finalize_state does it. Tokens are counted (np.unique), ordered by
np.lexsort((tokens, counts))[::-1] (most frequent first, ties by the larger token: integers by value,
strings by their UTF-8 bytes), and with output_mode tf_idf each row is a document and
idf = log(1 + documents / (1 + document count)). Integer tokens from a small range and strings from a
small alphabet (ASCII and two-byte characters) make many ties. Run with /usr/bin/python3."""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def learn(rows, tokens_of, oov_token):
    """(vocabulary, idf weights) of the documents `rows` as Keras's finalize_state orders them (it removes
    the OOV token from the counts first)."""
    flat = np.array([t for row in rows for t in tokens_of(row) if t != oov_token], dtype=object)
    tokens, counts = np.unique(flat, return_counts=True)
    order = np.lexsort((tokens, counts))[::-1]
    vocab = [tokens[i] for i in order]
    documents = len(rows)
    df = {t: sum(1 for row in rows if t in set(tokens_of(row))) for t in vocab}
    idf = [float(np.log(1 + documents / (1 + df[t]))) for t in vocab]
    return vocab, idf


def main():
    rng = np.random.default_rng(1919)
    ints = rng.integers(-20, 40, size=(30, 8))
    int_vocab, int_idf = learn([list(map(int, r)) for r in ints], lambda r: r, -1)  # IntegerLookup's oov_token
    alphabet = ["a", "b", "z", "é", "ä", "zz", "ab", "b\u00e9"]
    words = rng.choice(len(alphabet), size=(25, 6))
    rows = [[alphabet[i] for i in r] for r in words]
    # NumPy compares Python bytes objects bytewise, as Keras's lexsort over tf.string values does.
    str_vocab, str_idf = learn([[w.encode("utf-8") for w in r] for r in rows], lambda r: r, b"[UNK]")
    with open(os.path.join(HERE, "lookup_adapt.json"), "w") as f:
        json.dump({"ints": {"data": ints.tolist(), "vocabulary": int_vocab, "idf": int_idf},
                   "strings": {"data": rows, "vocabulary": [b.decode("utf-8") for b in str_vocab], "idf": str_idf}},
                  f, ensure_ascii=False)


if __name__ == "__main__":
    main()
