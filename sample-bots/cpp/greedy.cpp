// greedy.cpp: a sample All Fives bot for the bot arena (C++17, standard library only).
//
// It plays the legal move that scores the most points at once; ties go to the
// heaviest tile (tiles left in hand cost points when the hand ends), then to
// the earliest move in the `legal` list.
//
// Build and run it in a match:
//     g++ -O2 -std=c++17 sample-bots/cpp/greedy.cpp -o greedy-cpp
//     target/release/arena match --bot cpp=./greedy-cpp --bot greedy=target/release/greedy-bot
//
// To write your own bot, copy this file and change `choose`. The arena talks to
// the bot with one JSON object per line on stdin; the bot answers on stdout.
// Log to stderr (std::cerr), never to stdout.
//
// There is no JSON library here: `Json` below is a small reader, enough for
// the arena's messages (objects, arrays, strings, numbers, true, false, null).
// Numbers are kept as their text, so that each is read at the width it needs:
// seeds and request ids are unsigned 64-bit (use std::stoull and uint64_t;
// std::stoll fails on about half the seeds), pips and points are small.

#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* const NAME = "greedy-cpp";

// A JSON value: `kind` says which of the other fields holds it.
struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool flag = false;              // Bool
    std::string text;               // Number (its text), String
    std::vector<Json> items;        // Array
    std::map<std::string, Json> fields;  // Object

    // The field `key` of an object; a null value if there is none.
    const Json& operator[](const std::string& key) const {
        static const Json none;
        auto it = fields.find(key);
        return it == fields.end() ? none : it->second;
    }
    const std::string& str() const { return text; }
    uint64_t u64() const { return std::stoull(text); }  // seeds and ids
    long long i64() const { return std::stoll(text); }  // pips, points, scores
};

// Reads one JSON value from a line; throws std::runtime_error on bad input.
class Reader {
  public:
    explicit Reader(const std::string& line) : s_(line) {}

    Json document() {
        Json value = parse();
        skip_space();
        if (pos_ != s_.size()) fail("trailing characters");
        return value;
    }

  private:
    const std::string& s_;
    size_t pos_ = 0;

    [[noreturn]] void fail(const char* what) const {
        throw std::runtime_error(std::string(what) + " at offset " + std::to_string(pos_));
    }
    void skip_space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r' || s_[pos_] == '\n')) ++pos_;
    }
    char peek() {
        skip_space();
        if (pos_ >= s_.size()) fail("unexpected end of line");
        return s_[pos_];
    }
    void expect(char c) {
        if (peek() != c) fail("unexpected character");
        ++pos_;
    }
    void literal(const char* word) {
        for (const char* p = word; *p; ++p, ++pos_) {
            if (pos_ >= s_.size() || s_[pos_] != *p) fail("bad literal");
        }
    }

    Json parse() {
        Json value;
        char c = peek();
        if (c == '{') {
            value.kind = Json::Object;
            ++pos_;
            if (peek() == '}') { ++pos_; return value; }
            for (;;) {
                std::string key = string();
                expect(':');
                value.fields[key] = parse();
                if (peek() == ',') { ++pos_; continue; }
                expect('}');
                return value;
            }
        }
        if (c == '[') {
            value.kind = Json::Array;
            ++pos_;
            if (peek() == ']') { ++pos_; return value; }
            for (;;) {
                value.items.push_back(parse());
                if (peek() == ',') { ++pos_; continue; }
                expect(']');
                return value;
            }
        }
        if (c == '"') {
            value.kind = Json::String;
            value.text = string();
            return value;
        }
        if (c == 't') { literal("true"); value.kind = Json::Bool; value.flag = true; return value; }
        if (c == 'f') { literal("false"); value.kind = Json::Bool; return value; }
        if (c == 'n') { literal("null"); return value; }
        value.kind = Json::Number;
        size_t start = pos_;
        while (pos_ < s_.size() && std::string("+-.0123456789eE").find(s_[pos_]) != std::string::npos) ++pos_;
        if (pos_ == start) fail("unexpected character");
        value.text = s_.substr(start, pos_ - start);
        return value;
    }

    // Four hex digits of a \u escape.
    unsigned hex4() {
        if (pos_ + 4 > s_.size()) fail("short \\u escape");
        unsigned value = std::stoul(s_.substr(pos_, 4), nullptr, 16);
        pos_ += 4;
        return value;
    }

    // Appends a code point as UTF-8.
    static void utf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }

    // A string, its escapes decoded.
    std::string string() {
        expect('"');
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"') {
            char c = s_[pos_++];
            if (c == '\\' && pos_ < s_.size()) {
                char e = s_[pos_++];
                switch (e) {
                    case 'n': out += '\n'; break;
                    case 't': out += '\t'; break;
                    case 'r': out += '\r'; break;
                    case 'b': out += '\b'; break;
                    case 'f': out += '\f'; break;
                    case 'u': {
                        unsigned cp = hex4();
                        if (cp >= 0xD800 && cp < 0xDC00 && s_.compare(pos_, 2, "\\u") == 0) {
                            pos_ += 2;  // a surrogate pair
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4() - 0xDC00);
                        }
                        utf8(out, cp);
                        break;
                    }
                    default: out += e;  // \" \\ \/
                }
            } else {
                out += c;
            }
        }
        if (pos_ >= s_.size()) fail("unterminated string");
        ++pos_;
        return out;
    }
};

// Returns the index in `legal` of the move to play.
//   state: {hand_number, hand: [[a, b], ...], ends: [{id, pips, counts}, ...],
//           scores, hand_sizes, boneyard, drawable}
//   legal: [{tile: [a, b], end: id or null for the lead, points: scored at once}, ...]
//          (never empty)
size_t choose(const Json& /*state*/, const Json& legal) {
    auto points = [&](size_t i) { return legal.items[i]["points"].i64(); };
    auto pips = [&](size_t i) {
        const Json& tile = legal.items[i]["tile"];
        return tile.items[0].i64() + tile.items[1].i64();
    };
    size_t best = 0;
    for (size_t i = 1; i < legal.items.size(); ++i) {
        // Most points, then most pips; only a strictly better move replaces
        // the best so far, so the lowest index wins a tie.
        if (points(i) > points(best) || (points(i) == points(best) && pips(i) > pips(best))) best = i;
    }
    return best;
}

// Writes one message as one line and flushes it at once.
void send(const std::string& line) {
    std::cout << line << '\n' << std::flush;
}

}  // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Json message;
        try {
            message = Reader(line).document();
        } catch (const std::exception& e) {
            // Probably something added after this bot was written: skip it.
            std::cerr << NAME << ": ignoring a line: " << e.what() << '\n';
            continue;
        }
        const std::string& type = message["type"].str();
        if (type == "hello") {
            if (message["protocol"].str() != "1") {
                std::cerr << NAME << ": unsupported protocol version " << message["protocol"].str() << '\n';
                return 1;
            }
            send(std::string("{\"type\":\"ready\",\"name\":\"") + NAME + "\",\"version\":\"1.0\",\"protocol\":1}");
        } else if (type == "game_start") {
            // The seed for this game's randomness (unused by a greedy bot): unsigned 64-bit.
            uint64_t seed = message["seed"].u64();
            (void)seed;
        } else if (type == "turn") {
            uint64_t id = message["id"].u64();
            size_t index = choose(message["state"], message["legal"]);
            send("{\"type\":\"move\",\"id\":" + std::to_string(id) + ",\"index\":" + std::to_string(index) + "}");
        } else if (type == "bye") {
            return 0;
        }
        // Anything else (hand_start, play, draw, pass, hand_end, game_end, or a
        // type added later) is ignored here; track the events if your bot needs them.
    }
    return 0;
}
