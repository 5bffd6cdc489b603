"""Strings of the raw-ids block on the "Token embeddings" page (lesson 001)."""
PREFIX = "raw."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "raw.header": {"en": "Why not feed the id itself?", "zh": "为什么不直接把 id 送进网络？"},
    "raw.text": {
        "en": (
            "Lesson 001: a token id is a name, not a quantity. 'A' is 65 and 'B' is 66, but being 1 apart says "
            "nothing about the two letters. If 'king' were id 1000 and 'queen' 1001, they would be neighbours only "
            "because of how the vocabulary was sorted. A network that computes with the number would treat id "
            "order as meaning. Check it on a real vocabulary. The rows next to a word's id in the bundled model "
            "(all-MiniLM-L6-v2) are unrelated words. A related word may sit far away in id order and still "
            "point nearly the same way."
        ),
        "zh": (
            "第 001 课：token id 只是一个编号，不是一个数量。'A' 是 65，'B' 是 66，但相差 1 并不说明这两个字母"
            "有什么关系；如果 'king' 的 id 是 1000、'queen' 是 1001，它们相邻也只是词表排序的巧合。让网络直接用"
            "这个数字计算，就等于把编号顺序当成了语义。在真实的词表上验证一下：内置模型（all-MiniLM-L6-v2）里"
            "与某个词 id 相邻的行都是无关的词，而一个相关的词可能在 id 上离得很远，方向却很接近。"
        ),
    },
    "raw.char": {"en": "a character (byte-level ids)", "zh": "一个字符（字节级 id）"},
    "raw.word": {"en": "a word (bundled model)", "zh": "一个词（内置模型）"},
    "raw.other": {"en": "a related word", "zh": "一个相关的词"},
    "raw.col_id": {"en": "id", "zh": "id"},
    "raw.col_char": {"en": "character", "zh": "字符"},
    "raw.col_token": {"en": "token", "zh": "token"},
    "raw.col_cos": {"en": "cos with “{word}”", "zh": "与“{word}”的余弦相似度"},
    "raw.ids": {
        "en": "“{word}” is id {a:,} and “{other}” is id {b:,}: {gap:,} rows apart in a vocabulary of {V:,}.",
        "zh": "“{word}” 的 id 是 {a:,}，“{other}” 的 id 是 {b:,}：在 {V:,} 行的词表里相隔 {gap:,} 行。",
    },
    "raw.m_cos": {"en": "cos(“{word}”, “{other}”)", "zh": "cos(“{word}”, “{other}”)"},
    "raw.m_rank": {"en": "“{other}” among “{word}”'s nearest rows", "zh": "“{other}” 在 “{word}” 的近邻中排第几"},
}
