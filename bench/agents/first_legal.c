/* The trivial agent of bench/bench_agents.py: answers ready, then the first legal action.
 * Build: cc -O2 -o first_legal first_legal.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) != -1) {
        if (strncmp(line, "{\"type\":\"hello\"", 15) == 0) {
            fputs("{\"type\":\"ready\",\"name\":\"first-legal\"}\n", stdout);
        } else if (strncmp(line, "{\"type\":\"decide\"", 16) == 0) {
            char *p = strstr(line, "\"legal\":[\"");
            if (p == NULL) continue;
            p += 10;
            char *end = strchr(p, '"');
            if (end == NULL) continue;
            fwrite(p, 1, (size_t)(end - p), stdout);
            fputc('\n', stdout);
        } else {
            continue;
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
