#include "platform_file.hpp"

#include "../atomic_file.hpp"
#include "../input_error.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace cleave::device {

namespace {

constexpr const char* kLineForm =
    "`HOST, ARCH, slots=FIRST-LAST[, gpu=ARCH (API)]` or a bare host name";
constexpr int kMaxSlot = 4095;

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r");
    const auto last = text.find_last_not_of(" \t\r");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

bool plain_word(const std::string& text, bool upper_case_allowed) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [&](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
               (upper_case_allowed && c >= 'A' && c <= 'Z');
    });
}

std::optional<int> slot_number(const std::string& text) {
    if (text.empty() || text.size() > 4 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const int value = std::stoi(text);
    return value <= kMaxSlot ? std::optional<int>(value) : std::nullopt;
}

class LineReader {
public:
    LineReader(std::string file, int line) : file_(std::move(file)), line_(line) {}

    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(file_, "line " + std::to_string(line_), problem);
    }

    Slots slot_range(const std::string& value) const {
        const auto dash = value.find('-');
        const auto first = slot_number(trimmed(value.substr(0, dash)));
        const auto last =
            dash == std::string::npos ? first : slot_number(trimmed(value.substr(dash + 1)));
        if (!first || !last || *last < *first)
            fail("expected slots=FIRST-LAST with 0 <= FIRST <= LAST <= " +
                 std::to_string(kMaxSlot) + " such as slots=0-5, found \"slots=" + value + "\"");
        return {*first, *last};
    }

    PlatformGpu gpu(const std::string& value) const {
        PlatformGpu gpu;
        const auto open = value.find('(');
        gpu.arch = trimmed(value.substr(0, open));
        bool ok = plain_word(gpu.arch, true);
        if (open != std::string::npos) {
            const auto close = value.find(')', open);
            gpu.api = trimmed(value.substr(
                open + 1, close == std::string::npos ? std::string::npos : close - open - 1));
            ok = ok && close != std::string::npos && trimmed(value.substr(close + 1)).empty() &&
                 plain_word(gpu.api, true);
        }
        if (!ok)
            fail("expected gpu=ARCH (API) such as gpu=NVIDIAVolta (CUDA), found \"gpu=" + value +
                 "\"");
        return gpu;
    }

private:
    std::string file_;
    int line_;
};

} // namespace

std::string host_name_too_long(const std::string& host) {
    return "expected a host name of at most " + std::to_string(kMaxHostNameLength) +
           " characters, found " + std::to_string(host.size());
}

bool valid_host_name(const std::string& host) {
    return !host.empty() && host.size() <= kMaxHostNameLength &&
           std::all_of(host.begin(), host.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.';
           });
}

PlatformFile parse_platform_file(const std::string& text, const std::string& file) {
    PlatformFile platform;
    platform.file = file;
    std::map<std::string, int> seen; // host -> line
    std::istringstream lines(text);
    int number = 0;
    for (std::string raw; std::getline(lines, raw);) {
        ++number;
        const std::string line = trimmed(raw.substr(0, raw.find('#')));
        if (line.empty())
            continue;
        const LineReader reader(file, number);
        std::vector<std::string> fields;
        std::istringstream parts(line);
        for (std::string part; std::getline(parts, part, ',');)
            fields.push_back(trimmed(part));
        if (line.back() == ',')
            fields.push_back("");
        for (const auto& f : fields)
            if (f.empty())
                reader.fail(std::string("empty field; expected ") + kLineForm);

        PlatformHost host;
        host.line = number;
        host.host = fields[0];
        if (host.host.size() > kMaxHostNameLength)
            reader.fail(host_name_too_long(host.host));
        if (!valid_host_name(host.host))
            reader.fail("expected a host name of letters, digits, '-' and '.' (fields are "
                        "separated by commas), found \"" +
                        host.host + "\"");
        if (const auto it = seen.find(host.host); it != seen.end())
            reader.fail("host " + host.host + " is already on line " + std::to_string(it->second) +
                        "; expected each host once");
        seen[host.host] = number;
        if (fields.size() > 1) {
            host.arch = fields[1];
            if (!plain_word(host.arch, false))
                reader.fail("expected the CPU architecture (arm, x86) after the host name, "
                            "found \"" +
                            host.arch + "\"; a line is " + kLineForm);
            for (std::size_t i = 2; i < fields.size(); ++i) {
                const auto equals = fields[i].find('=');
                const std::string key =
                    trimmed(fields[i].substr(0, equals == std::string::npos ? 0 : equals));
                const std::string value =
                    equals == std::string::npos ? "" : trimmed(fields[i].substr(equals + 1));
                if (key == "slots" && !host.slot_range)
                    host.slot_range = reader.slot_range(value);
                else if (key == "gpu" && !host.gpu)
                    host.gpu = reader.gpu(value);
                else if (key == "slots" || key == "gpu")
                    reader.fail(key + "= given twice; expected it once");
                else
                    reader.fail("unknown field \"" + fields[i] +
                                "\"; expected slots=FIRST-LAST or gpu=ARCH (API)");
            }
            if (!host.slot_range)
                reader.fail(std::string("missing slots=FIRST-LAST; expected ") + kLineForm);
        }
        platform.hosts.push_back(std::move(host));
    }
    if (platform.hosts.empty())
        throw InputError(file, "",
                         "no hosts; expected one line per host such as `nx01, arm, slots=0-5, "
                         "gpu=NVIDIAVolta (CUDA)`");
    return platform;
}

PlatformFile load_platform_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot read; expected an AutoDiCE platform.txt");
    std::stringstream text;
    text << in.rdbuf();
    return parse_platform_file(text.str(), path);
}

std::string platform_file_text(const PlatformFile& platform) {
    std::string text;
    for (const auto& h : platform.hosts) {
        text += h.host;
        if (!h.bare()) {
            text += ", " + h.arch;
            if (h.slot_range)
                text += ", slots=" + std::to_string(h.slot_range->first) +
                        (h.slot_range->count() > 1 ? "-" + std::to_string(h.slot_range->last) : "");
            if (h.gpu)
                text +=
                    ", gpu=" + h.gpu->arch + (h.gpu->api.empty() ? "" : " (" + h.gpu->api + ")");
        }
        text += "\n";
    }
    return text;
}

void save_platform_file(const PlatformFile& platform, const std::string& path) {
    write_file_atomically(path, platform_file_text(platform));
}

} // namespace cleave::device
