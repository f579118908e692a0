#include "weight_payloads.hpp"

#include "../input_error.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <limits>

namespace cleave::graph {

namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;

// Field numbers from onnx.proto.
constexpr std::uint32_t kModelGraph = 7;
constexpr std::uint32_t kGraphInitializer = 5;
constexpr std::uint32_t kTensorRawData = 9;

struct Field {
    std::uint32_t number = 0;
    std::size_t begin = 0;   // first byte of the tag
    std::size_t payload = 0; // first byte after the length prefix (length-delimited fields)
    std::size_t end = 0;     // one past the last byte
    bool length_delimited = false;
};

class Separator {
public:
    Separator(std::span<const std::uint8_t> bytes, const std::string& file, std::size_t min_payload)
        : bytes_(bytes), file_(file), min_payload_(min_payload) {}

    SeparatedModel run() {
        if (bytes_.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
            throw InputError(file_, "",
                             "larger than 2 GiB; such ONNX files must keep their "
                             "weights as external data");
        SeparatedModel result;
        result.structure.reserve(1 << 16);
        for_each_field(0, bytes_.size(), "ModelProto", [&](const Field& f) {
            if (f.number == kModelGraph && f.length_delimited)
                append_message(result.structure, f, rewrite_graph(f, result));
            else
                append_verbatim(result.structure, f);
        });
        return result;
    }

private:
    template <typename Visit>
    void for_each_field(std::size_t begin, std::size_t end, const char* message, Visit&& visit) {
        CodedInputStream in(bytes_.data() + begin, static_cast<int>(end - begin));
        while (true) {
            const auto position = begin + static_cast<std::size_t>(in.CurrentPosition());
            if (position == end)
                return;
            const std::uint32_t tag = in.ReadTag();
            if (tag == 0 || WireFormatLite::GetTagFieldNumber(tag) == 0)
                fail(position, std::string("invalid field tag in ") + message +
                                   "; expected a protobuf-encoded ONNX model");
            Field f;
            f.number = WireFormatLite::GetTagFieldNumber(tag);
            f.begin = position;
            if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
                std::uint32_t length = 0;
                if (!in.ReadVarint32(&length))
                    fail(position, std::string("truncated length of field ") +
                                       std::to_string(f.number) + " in " + message);
                f.length_delimited = true;
                f.payload = begin + static_cast<std::size_t>(in.CurrentPosition());
                if (length > end - f.payload)
                    fail(position, std::string("field ") + std::to_string(f.number) + " of " +
                                       message + " declares " + std::to_string(length) +
                                       " bytes but only " + std::to_string(end - f.payload) +
                                       " remain; the file is truncated or corrupt");
                in.Skip(static_cast<int>(length));
            } else if (!WireFormatLite::SkipField(&in, tag)) {
                fail(position, std::string("malformed field ") + std::to_string(f.number) + " in " +
                                   message + "; the file is truncated or corrupt");
            }
            f.end = begin + static_cast<std::size_t>(in.CurrentPosition());
            visit(f);
        }
    }

    std::string rewrite_graph(const Field& graph, SeparatedModel& result) {
        std::string out;
        for_each_field(graph.payload, graph.end, "GraphProto", [&](const Field& f) {
            if (f.number == kGraphInitializer && f.length_delimited) {
                std::optional<PayloadRange> payload;
                std::string tensor;
                for_each_field(f.payload, f.end, "TensorProto", [&](const Field& t) {
                    if (t.number == kTensorRawData && t.length_delimited &&
                        t.end - t.payload >= min_payload_) {
                        payload = PayloadRange{t.payload, t.end - t.payload};
                        return;
                    }
                    append_verbatim(tensor, t);
                });
                result.initializer_payloads.push_back(payload);
                append_message(out, f, tensor);
            } else {
                append_verbatim(out, f);
            }
        });
        return out;
    }

    void append_verbatim(std::string& out, const Field& f) const {
        out.append(reinterpret_cast<const char*>(bytes_.data() + f.begin), f.end - f.begin);
    }

    static void append_message(std::string& out, const Field& f, const std::string& body) {
        std::uint8_t header[16];
        std::uint8_t* p = CodedOutputStream::WriteTagToArray(
            WireFormatLite::MakeTag(static_cast<int>(f.number),
                                    WireFormatLite::WIRETYPE_LENGTH_DELIMITED),
            header);
        p = CodedOutputStream::WriteVarint32ToArray(static_cast<std::uint32_t>(body.size()), p);
        out.append(reinterpret_cast<const char*>(header), static_cast<std::size_t>(p - header));
        out += body;
    }

    [[noreturn]] void fail(std::size_t position, const std::string& problem) const {
        throw InputError(file_, "byte " + std::to_string(position), problem);
    }

    std::span<const std::uint8_t> bytes_;
    const std::string& file_;
    std::size_t min_payload_;
};

} // namespace

SeparatedModel separate_weight_payloads(std::span<const std::uint8_t> bytes,
                                        const std::string& file, std::size_t min_payload_bytes) {
    return Separator(bytes, file, min_payload_bytes).run();
}

} // namespace cleave::graph
