// Loading a SentencePiece model from its bytes and running the library's encoder and decoder over it.
#include "text/sentencepiece_model.h"

#include "text/sentencepiece_charsmap.h"
#include "text/utf8.h"

#include <sentencepiece_processor.h>

#include <algorithm>
#include <cassert>
#include <exception>

namespace attnlab {

namespace {

// The library's message as one line of valid UTF-8.
std::string one_line(std::string_view message) {
    std::string line = replace_invalid_utf8(message);
    std::replace(line.begin(), line.end(), '\n', ' ');
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line;
}

}  // namespace

SentencePieceModel::SentencePieceModel(std::shared_ptr<const sentencepiece::SentencePieceProcessor> processor)
    : processor_(std::move(processor)) {}

Result<SentencePieceModel> SentencePieceModel::from_bytes(const TokenizerFile& file) {
    auto processor = std::make_shared<sentencepiece::SentencePieceProcessor>();
    sentencepiece::util::Status status;
    try {
        status = processor->LoadFromSerializedProto(file.text);
    } catch (const std::exception& e) {  // its trie builder throws, e.g. on an empty piece of a unigram model
        status = sentencepiece::util::Status(sentencepiece::util::StatusCode::kInternal, e.what());
    }
    if (!status.ok()) {
        const std::string message = status.message();
        const std::string why = message.find("ParseFromArray") != std::string::npos
                                    ? "its bytes are not a SentencePiece ModelProto"
                                    : "the library says: \"" + one_line(message) + "\"";
        return Error{one_line(std::string(file.name)) + ": not a SentencePiece model (" + why + ")"};
    }
    // The library runs these rules unchecked; a broken trie in them would make Encode read outside the model.
    if (Status rules = check_precompiled_charsmaps(processor->serialized_model_proto()); !rules)
        return Error{one_line(std::string(file.name)) + ": broken normalization rules (" + rules.error().message + ")"};
    return SentencePieceModel(std::move(processor));
}

std::vector<SentencePiece> SentencePieceModel::encode(std::string_view text) const {
    assert(is_valid_utf8(text));
    sentencepiece::ImmutableSentencePieceText encoded;
    const sentencepiece::util::Status status = processor_->Encode(text, encoded.mutable_proto());
    assert(status.ok());  // a loaded model encodes any valid UTF-8
    std::vector<SentencePiece> out;
    out.reserve(encoded.pieces_size());
    for (const auto& p : encoded.pieces()) out.push_back({p.piece(), static_cast<int>(p.id()), {p.begin(), p.end()}});
    // The library gives a character's whole span to its last <0xXX> piece and empty spans to the others.
    for (size_t i = out.size(); i-- > 1;) {
        SentencePiece& before = out[i - 1];
        if (before.span.begin == before.span.end && processor_->IsByte(before.id) && processor_->IsByte(out[i].id) &&
            out[i].span.begin == before.span.begin)
            before.span = out[i].span;
    }
    return out;
}

std::string SentencePieceModel::decode(const std::vector<std::string>& pieces) const {
    std::string text;
    const sentencepiece::util::Status status = processor_->Decode(pieces, &text);
    assert(status.ok());  // a loaded model decodes any pieces
    return replace_invalid_utf8(text);
}

int SentencePieceModel::size() const { return processor_->GetPieceSize(); }

const std::string& SentencePieceModel::piece(int id) const {
    assert(id >= 0 && id < size());
    return processor_->IdToPiece(id);
}

bool SentencePieceModel::is_control(int id) const { return processor_->IsControl(id); }

bool SentencePieceModel::is_unknown(int id) const { return processor_->IsUnknown(id); }

std::optional<int> SentencePieceModel::bos_id() const {
    const int id = processor_->bos_id();
    if (id < 0 || id >= size()) return std::nullopt;
    return id;
}

std::optional<int> SentencePieceModel::eos_id() const {
    const int id = processor_->eos_id();
    if (id < 0 || id >= size()) return std::nullopt;
    return id;
}

}  // namespace attnlab
