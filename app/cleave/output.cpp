#include "output.hpp"

#include "core/atomic_file.hpp"

#include <cstdio>
#include <iostream>

namespace cleave::cli {

void emit_json(const nlohmann::ordered_json& document, bool print, const std::string& out_file) {
    const std::string text = document.dump(1) + "\n";
    if (!out_file.empty())
        write_file_atomically(out_file, text);
    if (print)
        std::cout << text;
}

std::string grouped(std::int64_t value) {
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string text = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            text += ',';
        text += digits[i];
    }
    return text;
}

std::string giga(std::int64_t value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f G", decimals, static_cast<double>(value) / 1e9);
    return buffer;
}

} // namespace cleave::cli
