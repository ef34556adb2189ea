"""Shared fixtures: pipelines load once per session, tiny models are built in temp dirs."""

from __future__ import annotations

import os

import pytest

# Tests never reach a model hub: everything they load is built locally or shipped.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def analyzer():
    from extractors import Analyzer

    return Analyzer()


def build_tiny_nli(folder, id2label: dict[int, str], *, seed: int = 0, vocab_words: list[str] | None = None):
    """A real (random) BERT sequence classifier and WordLevel tokenizer saved with save_pretrained."""
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    words = vocab_words or (
        "refund refunds days business within the a is are to of in and on not no fee fees policy hotel night "
        "per 1 2 3 4 5 6 7 8 9 0 退 款 工 作 日 天 内 的 是 不 有"
    ).split()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    vocab = {tok: i for i, tok in enumerate(specials + sorted(set(words)))}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits(True)])
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
    )
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=64)
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=64, num_labels=len(id2label),
                        id2label=id2label, label2id={v: k for k, v in id2label.items()})
    BertForSequenceClassification(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def lexical(analyzer):
    """The engine on the lexical baseline: fast and deterministic, for tests of its rules."""
    from verifier import Verifier

    return Verifier("lexical", analyzer=analyzer)
