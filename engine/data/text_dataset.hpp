// Text datasets for character-level language models: a UTF-8 or plain text file (or a folder of
// them) becomes a Dataset whose samples are windows of T token ids and whose labels are the next
// token at every step. The text is split by position: the first part trains, the last validates
// (it is the Dataset's `test` split, which the Trainer validates on after every epoch).
//
// Vocabulary: byte-level by default (256 symbols, as the notebook: every file is representable,
// no unknown symbol can occur at generation time, and the model file needs no symbol table), or
// character-level (the distinct UTF-8 characters of the text, sorted by code point, at most 256).
// Models keep the vocabulary as their class names, each symbol written as the hex of its UTF-8
// bytes ("41" for "A", "c3a9" for "é"), so a weights file alone can generate text.
#pragma once

#include "data/dataset.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tb {

enum class TextVocabularyKind { Bytes, Characters };

struct TextVocabulary {
    TextVocabularyKind kind = TextVocabularyKind::Bytes;
    std::vector<std::string> symbols; // (size) each symbol's bytes; byte-level: the 256 single bytes

    static TextVocabulary bytes();
    // The distinct characters of valid UTF-8 `text`, sorted; DataError (naming the text by `origin`)
    // beyond 256 of them.
    static TextVocabulary characters(const std::string& text, const std::string& origin);
    // From a model's class names (hex symbols, see above); ModelError if they are not a vocabulary.
    static TextVocabulary fromClassNames(const std::vector<std::string>& names);

    int size() const { return int(symbols.size()); }
    std::vector<std::string> classNames() const;
    // Token ids of `text`; DataError naming the first symbol the vocabulary lacks (character-level),
    // its byte offset in `text` and its bytes, and `text` by `what` ("the prompt").
    std::vector<uint8_t> encode(const std::string& text, const std::string& what = "the text") const;
    const std::string& decode(int id) const { return symbols[size_t(id)]; }
};

struct TextOptions {
    int sequenceLength = 100; // T, the notebook's
    TextVocabularyKind vocabulary = TextVocabularyKind::Bytes;
    // Character-level: a model's characters (evaluating or resuming it), with which the text is
    // encoded, instead of the text's own; DataError names the first character the model lacks.
    std::optional<TextVocabulary> modelCharacters;
    double validationFraction = 0.1; // the last part of the text, by position
    // A text to train on: one symbol repeated is refused (nothing to predict). Evaluating or resuming
    // a model on it is not refused.
    bool forTraining = true;
};

// The text of a file, or of every regular file in a folder (sorted by name, not hidden, not
// recursive) joined in that order. DataError: missing, unreadable, empty, binary (a zero byte),
// not UTF-8 when `requireUtf8`.
std::string readText(const std::string& fileOrDir, bool requireUtf8);

// Reads and encodes the text and cuts it into non-overlapping windows of T ids (sample i covers ids
// [iT, iT + T) and is labelled [iT + 1, iT + T + 1)) on each side of the split. DataError when a
// side is shorter than one sequence.
Dataset loadTextDataset(const std::string& fileOrDir, const TextOptions& options = {});
// The same from text in memory (`origin` names it in messages).
Dataset textDataset(const std::string& text, const std::string& origin, const TextOptions& options = {});

// The well-formed UTF-8 sequence a lead byte starts (Unicode's table 3-7): its length in bytes (0: the
// byte starts none) and the range of its second byte, which rules out overlong forms, surrogates
// (U+D800 to U+DFFF) and code points past U+10FFFF. The bytes after the second are 0x80 to 0xbf.
struct Utf8Lead {
    size_t length;
    unsigned char low, high;
};
Utf8Lead utf8Lead(unsigned char b);
// Where `s` stops being valid UTF-8 (a byte offset), or std::string::npos where it is valid throughout.
size_t firstInvalidUtf8(const std::string& s);

// Whether --data names a text dataset: a file not named as IDX files are (a device or a pipe too:
// reading it says why it cannot be one), or a folder of files that are neither named so nor binary
// at their start.
bool isTextDataPath(const std::string& path);
// Whether a file has a zero byte in its first 4 KiB (not one that is empty or cannot be read).
bool looksBinary(const std::string& file);

// The entropy (nats per token) of the ids' unigram distribution: the loss of a model that knows only
// how often each symbol occurs. A language model should go well below it.
double unigramEntropy(const std::vector<uint8_t>& ids, int vocabulary);

// Nats to bits (a loss per symbol as bits per character).
double bitsPerSymbol(double nats);
// Text for a terminal line: newlines as "↵", tabs as spaces, other control bytes and invalid UTF-8 as "?".
std::string printableSample(const std::string& text);
// One symbol of a vocabulary as a table shows it: a space, newline or tab by a sign ("␣", "↵", "⇥"), a
// byte that is no character on its own (a control byte, one byte of a UTF-8 character) by its value
// ("⟨c3⟩"), any other as itself.
std::string symbolLabel(const std::string& symbol);

// The vocabulary a text dataset was loaded with.
TextVocabulary vocabularyOf(const Dataset& d);

} // namespace tb
