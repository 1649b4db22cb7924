/* A small rule-based mjcore agent (the agent protocol, docs/agents.md) in C99.
 *
 * The same rules as rule_agent.py and rule_agent.js, so all three play the same decisions:
 * 1. "hu" when legal; else 2. the first legal "declare"; else 3. the first legal "choose";
 * else 4. the legal discard of least use to the hand (4 per other copy held, 3 per
 * neighbouring kind held, 1 per kind two apart, the public joker kind 100, a flower -1000;
 * ties go to the discard listed first); else 5. "pass"; else 6. the first legal action.
 *
 * No JSON library: it reads only what it needs from a message, relying on two facts of
 * mjcore's messages: "type" is the first key, and in a "decide" view only the agent's own
 * seat carries a "hand" string (tile texts and action texts hold no escapes).
 * Build: cc -O2 -o rule_agent rule_agent.c
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEGAL 256

static const char *SUITS = "mpsz";

static int kind(char digit, char suit) {
    const char *p = strchr(SUITS, suit);
    if (p == NULL || suit == '\0' || digit < '1' || digit > '9') return -1;
    return (int)(p - SUITS) * 9 + (digit - '1');
}

/* The string value after `key` (e.g. "\"hand\":\""), copied into out; 0 when absent. */
static int string_after(const char *line, const char *key, char *out, size_t size) {
    const char *p = strstr(line, key);
    if (p == NULL) return 0;
    p += strlen(key);
    size_t n = 0;
    while (*p && *p != '"' && n + 1 < size) out[n++] = *p++;
    out[n] = '\0';
    return 1;
}

static void counts(const char *hand, int held[34]) {
    memset(held, 0, 34 * sizeof(int));
    const char *start = hand;
    for (const char *p = hand; *p; p++) {
        if (*p >= '0' && *p <= '9') continue;
        for (const char *d = start; d < p; d++) {
            int k = kind(*d, *p);
            if (k >= 0) held[k]++;
        }
        start = p + 1;
    }
}

static int use(int k, const int held[34], int joker) {
    static const int dist[4] = {-2, -1, 1, 2}, weight[4] = {1, 3, 3, 1};
    int score = 4 * (held[k] - 1) + (k == joker ? 100 : 0);
    if (k < 27) {
        for (int i = 0; i < 4; i++) {
            int j = k + dist[i];
            if (j >= 0 && j < 27 && j / 9 == k / 9 && held[j]) score += weight[i];
        }
    }
    return score;
}

static int starts(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void decide(char *line) {
    char *legal[MAX_LEGAL];
    int n = 0;
    char *p = strstr(line, "\"legal\":[");
    if (p == NULL) { puts("pass"); return; }
    p += strlen("\"legal\":[");
    while (*p == '"' && n < MAX_LEGAL) { /* "a","b",… — cut each in place */
        char *end = strchr(p + 1, '"');
        if (end == NULL) break;
        *end = '\0';
        legal[n++] = p + 1;
        p = end + 1;
        if (*p == ',') p++;
    }
    if (n == 0) { puts("pass"); return; }
    static const char *firsts[3] = {"hu", "declare ", "choose "};
    for (int f = 0; f < 3; f++)
        for (int i = 0; i < n; i++)
            if (strcmp(legal[i], firsts[f]) == 0 || starts(legal[i], firsts[f])) {
                puts(legal[i]);
                return;
            }
    char hand[256] = "", joker_tile[8] = "";
    int held[34], joker = -1, best = -1, best_score = 0;
    /* "hand" and "joker_kind" lie before "legal" in the line: cutting it left them whole */
    string_after(line, "\"hand\":\"", hand, sizeof hand);
    if (string_after(line, "\"joker_kind\":\"", joker_tile, sizeof joker_tile))
        joker = kind(joker_tile[0], joker_tile[1]);
    counts(hand, held);
    for (int i = 0; i < n; i++) {
        if (!starts(legal[i], "discard ")) continue;
        int k = kind(legal[i][8], legal[i][9]);
        int score = k < 0 ? -1000 : use(k, held, joker);
        if (best < 0 || score < best_score) { best = i; best_score = score; }
    }
    if (best >= 0) { puts(legal[best]); return; }
    for (int i = 0; i < n; i++)
        if (strcmp(legal[i], "pass") == 0) { puts("pass"); return; }
    puts(legal[0]);
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) != -1) {
        char type[32] = "";
        string_after(line, "\"type\":\"", type, sizeof type);
        if (strcmp(type, "hello") == 0) {
            puts("{\"type\":\"ready\",\"name\":\"rule-agent\",\"language\":\"c\"}");
        } else if (strcmp(type, "decide") == 0) {
            decide(line);
        } else {
            continue; /* hand_start, hand_end: nothing to answer */
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
