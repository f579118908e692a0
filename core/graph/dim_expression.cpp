#include "dim_expression.hpp"

#include "../input_error.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace cleave::graph {

namespace {

bool starts_name(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool continues_name(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// Recursive descent over expr := term (('+'|'-') term)*, term := factor (('*'|'/'|'//')
// factor)*, factor := integer | name | '(' expr ')' | '-' factor; '/' and '//' divide rounding
// down (Optimum writes "encoder_sequence_length / 2"). An unbound name makes the result unknown
// but the rest is still read, so that a syntax error is reported either way.
class DimParser {
public:
    DimParser(std::string_view text, const DimValues& values) : text_(text), values_(values) {}

    std::optional<std::int64_t> run() {
        const std::int64_t value = expression();
        skip_spaces();
        if (at_ < text_.size())
            fail("unexpected '" + std::string(1, text_[at_]) + "' at character " +
                 std::to_string(at_ + 1));
        return unbound_ ? std::nullopt : std::optional(value);
    }

private:
    std::int64_t expression() {
        std::int64_t value = term();
        while (true) {
            skip_spaces();
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) {
                const char op = text_[at_++];
                const std::int64_t rhs = term();
                check(op == '+' ? __builtin_add_overflow(value, rhs, &value)
                                : __builtin_sub_overflow(value, rhs, &value));
            } else {
                return value;
            }
        }
    }

    std::int64_t term() {
        std::int64_t value = factor();
        while (true) {
            skip_spaces();
            if (at_ < text_.size() && text_[at_] == '*') {
                ++at_;
                const std::int64_t rhs = factor();
                check(__builtin_mul_overflow(value, rhs, &value));
            } else if (at_ < text_.size() && text_[at_] == '/') {
                at_ += text_.substr(at_, 2) == "//" ? 2 : 1;
                value = divided(value, factor());
            } else {
                return value;
            }
        }
    }

    std::int64_t factor() {
        skip_spaces();
        if (at_ >= text_.size())
            fail("it ends where a number, a name or '(' was expected");
        const char c = text_[at_];
        if (c == '(') {
            ++at_;
            const std::int64_t value = expression();
            skip_spaces();
            if (at_ >= text_.size() || text_[at_] != ')')
                fail("a '(' is not closed");
            ++at_;
            return value;
        }
        if (c == '-') {
            ++at_;
            std::int64_t value = factor();
            check(__builtin_sub_overflow(std::int64_t{0}, value, &value));
            return value;
        }
        if (std::isdigit(static_cast<unsigned char>(c)))
            return number();
        if (starts_name(c))
            return name();
        fail("unexpected '" + std::string(1, c) + "' at character " + std::to_string(at_ + 1));
    }

    std::int64_t number() {
        std::int64_t value = 0;
        while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
            const int digit = text_[at_++] - '0';
            if (__builtin_mul_overflow(value, 10, &value) ||
                __builtin_add_overflow(value, digit, &value))
                fail("a number does not fit in 64 bits");
        }
        if (at_ < text_.size() && starts_name(text_[at_]))
            fail("a number runs into a name at character " + std::to_string(at_ + 1));
        return value;
    }

    std::int64_t name() {
        const std::size_t start = at_;
        while (at_ < text_.size() && continues_name(text_[at_]))
            ++at_;
        const auto found = values_.find(text_.substr(start, at_ - start));
        if (found == values_.end()) {
            unbound_ = true;
            return 0;
        }
        return found->second;
    }

    std::int64_t divided(std::int64_t value, std::int64_t by) const {
        if (unbound_)
            return 0;
        if (by == 0)
            fail("it divides by 0");
        check(value == std::numeric_limits<std::int64_t>::min() && by == -1);
        const std::int64_t quotient = value / by;
        return quotient * by != value && (value < 0) != (by < 0) ? quotient - 1 : quotient;
    }

    // Overflow only counts when every name is bound (unbound ones read as 0).
    void check(bool overflowed) const {
        if (overflowed && !unbound_)
            fail("its value does not fit in 64 bits");
    }

    void skip_spaces() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])))
            ++at_;
    }

    [[noreturn]] void fail(const std::string& why) const {
        throw InputError("", "dim '" + std::string(text_) + "'",
                         why + "; expected integers and names joined by + - * / and parentheses");
    }

    std::string_view text_;
    const DimValues& values_;
    std::size_t at_ = 0;
    bool unbound_ = false;
};

} // namespace

bool is_dim_name(std::string_view text) {
    if (text.empty() || !starts_name(text.front()))
        return false;
    for (const char c : text)
        if (!continues_name(c))
            return false;
    return true;
}

std::vector<std::string> dim_expression_names(std::string_view text) {
    std::vector<std::string> names;
    std::size_t at = 0;
    while (at < text.size()) {
        if (std::isdigit(static_cast<unsigned char>(text[at]))) {
            while (at < text.size() && continues_name(text[at]))
                ++at; // a number, or a number running into a name: not a name
        } else if (starts_name(text[at])) {
            const std::size_t start = at;
            while (at < text.size() && continues_name(text[at]))
                ++at;
            std::string name(text.substr(start, at - start));
            if (std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(std::move(name));
        } else {
            ++at;
        }
    }
    return names;
}

std::optional<std::int64_t> evaluate_dim_expression(std::string_view text,
                                                    const DimValues& values) {
    return DimParser(text, values).run();
}

} // namespace cleave::graph
