// read_user_file KIND FILE [MODEL CLUSTER]: reads one user file as the product reads it
// (user_file_readers.hpp), in a process of its own so that a crash or a hang is seen as one.
// Exit 0 when it was read, 2 with the message when it was refused (an InputError), 1 for any
// other exception.
#include "core/input_error.hpp"
#include "user_file_readers.hpp"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 3 && argc != 5) {
        std::cerr << "usage: read_user_file KIND FILE [MODEL CLUSTER]\n";
        return 1;
    }
    cleave::test::ReaderFixtures fixtures;
    if (argc == 5)
        fixtures = {argv[3], argv[4]};
    try {
        cleave::test::read_user_file(argv[1], argv[2], fixtures);
    } catch (const cleave::InputError& e) {
        std::cerr << "read_user_file: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "read_user_file: internal error: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
