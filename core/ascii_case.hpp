// Case folding of ASCII names (model names, input names, kernel names): bytes outside A-Z pass
// through unchanged, whatever the locale.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace cleave {

inline std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace cleave
