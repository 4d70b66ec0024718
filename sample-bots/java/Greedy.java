// Greedy.java: a sample All Fives bot for the bot arena (Java 11 or later, JDK only).
//
// It plays the legal move that scores the most points at once; ties go to the
// heaviest tile (tiles left in hand cost points when the hand ends), then to
// the earliest move in the `legal` list.
//
// Run it from its source (Java 11+ compiles it at each start), or compile it once:
//     java sample-bots/java/Greedy.java
//     javac -d greedy-java sample-bots/java/Greedy.java && java -cp greedy-java Greedy
//
// In a match, give the JVM flags that keep it small and quick to start (the
// arena limits each bot's address space, 8G by default; with these flags the
// JVM runs even at 1G, see the README, "Bot processes"):
//     target/release/arena match --bot greedy=target/release/greedy-bot \
//         --bot java="java -Xmx64m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m -Xss512k -cp greedy-java Greedy"
//
// To write your own bot, copy this file and change `choose`. The arena talks to
// the bot with one JSON object per line on stdin; the bot answers on stdout.
// Log to stderr (System.err), never to stdout.
//
// There is no JSON library in the JDK: `Json` below is a small reader, enough
// for the arena's messages. Numbers are kept as their text, so that each is
// read at the width it needs: seeds and request ids are unsigned 64-bit (use
// Long.parseUnsignedLong and Long.toUnsignedString; Long.parseLong fails on
// about half the seeds), pips and points are small.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class Greedy {
    private static final String NAME = "greedy-java";

    /**
     * Returns the index in {@code legal} of the move to play.
     *
     * @param state {hand_number, hand: [[a, b], ...], ends: [{id, pips, counts}, ...],
     *              scores, hand_sizes, boneyard, drawable}
     * @param legal [{tile: [a, b], end: id or null for the lead, points: scored at once}, ...]
     *              (never empty)
     */
    static int choose(Map<String, Object> state, List<Object> legal) {
        int best = 0;
        for (int i = 1; i < legal.size(); i++) {
            // Most points, then most pips; only a strictly better move replaces
            // the best so far, so the lowest index wins a tie.
            long points = points(legal, i), bestPoints = points(legal, best);
            if (points > bestPoints || (points == bestPoints && pips(legal, i) > pips(legal, best))) {
                best = i;
            }
        }
        return best;
    }

    private static long points(List<Object> legal, int i) {
        return Json.integer(Json.object(legal.get(i)).get("points"));
    }

    private static long pips(List<Object> legal, int i) {
        List<Object> tile = Json.array(Json.object(legal.get(i)).get("tile"));
        return Json.integer(tile.get(0)) + Json.integer(tile.get(1));
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // Not autoflushing: send() flushes each answer once it is written.
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> message;
            try {
                message = Json.object(new Json(line).document());
            } catch (IllegalArgumentException e) {
                // Probably something added after this bot was written: skip it.
                System.err.println(NAME + ": ignoring a line: " + e.getMessage());
                continue;
            }
            String type = String.valueOf(message.get("type"));
            switch (type) {
                case "hello":
                    if (!"1".equals(message.get("protocol"))) {
                        System.err.println(NAME + ": unsupported protocol version " + message.get("protocol"));
                        System.exit(1);
                    }
                    warmUp();
                    send(out, "{\"type\":\"ready\",\"name\":\"" + NAME + "\",\"version\":\"1.0\",\"protocol\":1}");
                    break;
                case "game_start":
                    // The seed for this game's randomness (unused by a greedy bot): unsigned 64-bit.
                    long seed = Json.unsigned(message.get("seed"));
                    break;
                case "turn":
                    long id = Json.unsigned(message.get("id"));
                    int index = choose(Json.object(message.get("state")), Json.array(message.get("legal")));
                    send(out, "{\"type\":\"move\",\"id\":" + Long.toUnsignedString(id) + ",\"index\":" + index + "}");
                    break;
                case "bye":
                    return;
                default:
                    // Anything else (hand_start, play, draw, pass, hand_end, game_end,
                    // or a type added later) is ignored here; track the events if your
                    // bot needs them.
            }
        }
    }

    /**
     * Reads and answers a made-up turn before saying ready: the JVM loads and
     * prepares the classes a move needs now, while the start-up timeout runs,
     * rather than during the first turn, which has only the move timeout.
     */
    private static void warmUp() {
        String turn = "{\"type\":\"turn\",\"id\":1,\"time_ms\":1000,\"state\":{\"hand_number\":1,"
                + "\"hand\":[[0,3],[3,3]],\"ends\":[{\"id\":0,\"pips\":4,\"counts\":8},{\"id\":1,\"pips\":3,\"counts\":3}],"
                + "\"scores\":[15,5],\"hand_sizes\":[2,2],\"boneyard\":18,\"drawable\":18},"
                + "\"legal\":[{\"tile\":[0,3],\"end\":1,\"points\":0},{\"tile\":[3,3],\"end\":1,\"points\":0}]}";
        for (int i = 0; i < 200; i++) {
            Map<String, Object> message = Json.object(new Json(turn).document());
            Json.unsigned(message.get("id"));
            choose(Json.object(message.get("state")), Json.array(message.get("legal")));
        }
    }

    /** Writes one message as one line and flushes it at once. */
    private static void send(PrintStream out, String line) {
        out.print(line);
        out.print('\n');
        out.flush();
    }

    /**
     * A small JSON reader: objects become {@code Map<String, Object>}, arrays
     * {@code List<Object>}, strings {@code String}, numbers their text (a
     * {@code String}: read it with {@link #integer} or {@link #unsigned}),
     * true and false {@code Boolean}, null {@code null}. Throws
     * IllegalArgumentException on anything else.
     */
    static final class Json {
        private final String s;
        private int pos;

        Json(String s) {
            this.s = s;
        }

        Object document() {
            Object value = parse();
            skipSpace();
            if (pos != s.length()) {
                throw fail("trailing characters");
            }
            return value;
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> object(Object value) {
            if (!(value instanceof Map)) {
                throw new IllegalArgumentException("expected an object");
            }
            return (Map<String, Object>) value;
        }

        @SuppressWarnings("unchecked")
        static List<Object> array(Object value) {
            if (!(value instanceof List)) {
                throw new IllegalArgumentException("expected an array");
            }
            return (List<Object>) value;
        }

        /** A small signed number (pips, points, scores). */
        static long integer(Object number) {
            return Long.parseLong((String) number);
        }

        /** An unsigned 64-bit number (seeds, ids), in a long's 64 bits. */
        static long unsigned(Object number) {
            return Long.parseUnsignedLong((String) number);
        }

        private IllegalArgumentException fail(String what) {
            return new IllegalArgumentException(what + " at offset " + pos);
        }

        private void skipSpace() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        private char peek() {
            skipSpace();
            if (pos >= s.length()) {
                throw fail("unexpected end of line");
            }
            return s.charAt(pos);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw fail("expected '" + c + "'");
            }
            pos++;
        }

        private Object literal(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw fail("bad literal");
            }
            pos += word.length();
            return value;
        }

        private Object parse() {
            char c = peek();
            switch (c) {
                case '{': {
                    pos++;
                    Map<String, Object> object = new LinkedHashMap<>();
                    if (peek() == '}') {
                        pos++;
                        return object;
                    }
                    while (true) {
                        String key = string();
                        expect(':');
                        object.put(key, parse());
                        if (peek() == ',') {
                            pos++;
                            continue;
                        }
                        expect('}');
                        return object;
                    }
                }
                case '[': {
                    pos++;
                    List<Object> array = new ArrayList<>();
                    if (peek() == ']') {
                        pos++;
                        return array;
                    }
                    while (true) {
                        array.add(parse());
                        if (peek() == ',') {
                            pos++;
                            continue;
                        }
                        expect(']');
                        return array;
                    }
                }
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default: {
                    int start = pos;
                    while (pos < s.length() && "+-.0123456789eE".indexOf(s.charAt(pos)) >= 0) {
                        pos++;
                    }
                    if (pos == start) {
                        throw fail("unexpected character");
                    }
                    return s.substring(start, pos);
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (pos < s.length() && s.charAt(pos) != '"') {
                char c = s.charAt(pos++);
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    break;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case 'n': out.append('\n'); break;
                    case 't': out.append('\t'); break;
                    case 'r': out.append('\r'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'u':
                        if (pos + 4 > s.length()) {
                            throw fail("short \\u escape");
                        }
                        try {
                            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException bad) {
                            throw fail("bad \\u escape");
                        }
                        pos += 4;
                        break;
                    default: out.append(e); // \" \\ \/
                }
            }
            if (pos >= s.length()) {
                throw fail("unterminated string");
            }
            pos++;
            return out.toString();
        }
    }
}
