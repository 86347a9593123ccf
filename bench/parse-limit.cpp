// The parse limit of a request body: the time simdjson's DOM parser (Debian's, the one Trellis links) takes
// to parse it, best of REPEATS after the parser has its capacity. No server that reads the whole document
// can answer faster; bench/run.py sets Trellis's time for the same body beside it.
//   parse-limit FILE [REPEATS]   prints the best time in milliseconds
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: parse-limit FILE [REPEATS]\n");
        return 2;
    }
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 15;
    simdjson::padded_string body;
    if (auto error = simdjson::padded_string::load(argv[1]).get(body)) {
        std::fprintf(stderr, "parse-limit: %s: %s\n", argv[1], simdjson::error_message(error));
        return 1;
    }
    simdjson::dom::parser parser;
    double best = 1e300;
    // One parse more than counted: the first one sizes the parser's buffers.
    for (int i = 0; i <= repeats; i++) {
        const auto start = std::chrono::steady_clock::now();
        simdjson::dom::element root;
        const auto error = parser.parse(body).get(root);
        const auto end = std::chrono::steady_clock::now();
        if (error) {
            std::fprintf(stderr, "parse-limit: %s: %s\n", argv[1], simdjson::error_message(error));
            return 1;
        }
        if (i > 0) best = std::min(best, std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::printf("%.3f\n", best);
    return 0;
}
