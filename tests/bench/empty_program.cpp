// A program that does nothing, linked with libc alone: what any process costs to start.
int main() {
    return 0;
}
