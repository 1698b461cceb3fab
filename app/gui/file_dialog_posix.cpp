// The file chooser's worker: posix_spawnp the program with its stdout on a pipe, read the pipe to
// the end, reap the process, and leave the outcome for the UI thread to take.
#include "file_dialog.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

extern char** environ;

namespace attnlab::gui {

struct FileDialog::Shared {
    std::mutex mutex;
    pid_t pid = -1;        // the running dialog, until it has exited
    bool closing = false;  // the owner is going away: end the dialog
    std::optional<FileDialogResult> result;
};

namespace {

using Outcome = FileDialogResult::Outcome;

FileDialogResult failure(Outcome outcome, const std::string& message) { return {outcome, "", message}; }

// The program's stdout, to the end (it ends when the program exits).
std::string read_all(int fd) {
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0)
            out.append(buf, static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    return out;
}

// Spawns `command`, keeps its pid in `shared` while it runs (so the owner can end it), and reads it.
FileDialogResult run(const std::vector<std::string>& command, std::mutex& mutex, pid_t& pid_slot, const bool& closing) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return failure(Outcome::failed, std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);                    // dup2 clears close-on-exec
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);  // GTK's chatter
    std::vector<char*> argv;
    for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int err = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (err != 0) {
        ::close(fds[0]);
        return failure(err == ENOENT ? Outcome::unavailable : Outcome::failed, command[0] + ": " + std::strerror(err));
    }
    {
        std::lock_guard lock(mutex);
        pid_slot = pid;
        if (closing) ::kill(pid, SIGTERM);
    }
    std::string out = read_all(fds[0]);
    ::close(fds[0]);
    // Wait for the exit without reaping, forget the pid, then reap: the owner never signals a reused pid.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {}
    {
        std::lock_guard lock(mutex);
        pid_slot = -1;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !out.empty()) return {Outcome::chosen, out, ""};
    if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1)) return {};  // cancelled
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return failure(Outcome::unavailable, command[0]);
    if (WIFSIGNALED(status))
        return failure(Outcome::failed, command[0] + " ended by signal " + std::to_string(WTERMSIG(status)));
    return failure(Outcome::failed, command[0] + " exited with status " + std::to_string(WEXITSTATUS(status)));
}

}  // namespace

void FileDialog::work(const std::shared_ptr<Shared>& shared, const std::vector<std::string>& command) {
    FileDialogResult result = run(command, shared->mutex, shared->pid, shared->closing);
    std::lock_guard lock(shared->mutex);
    shared->result = std::move(result);
}

FileDialog::~FileDialog() {
    if (shared_) {
        std::lock_guard lock(shared_->mutex);
        shared_->closing = true;
        if (shared_->pid > 0) ::kill(shared_->pid, SIGTERM);
    }
    if (worker_.joinable()) worker_.join();
}

bool FileDialog::start(std::vector<std::string> command, FilePick) {
    if (shared_ || command.empty()) return false;
    shared_ = std::make_shared<Shared>();
    worker_ = std::thread(&FileDialog::work, shared_, std::move(command));
    return true;
}

std::optional<FileDialogResult> FileDialog::take() {
    if (!shared_) return std::nullopt;
    std::optional<FileDialogResult> result;
    {
        std::lock_guard lock(shared_->mutex);
        if (!shared_->result) return std::nullopt;
        result = std::move(shared_->result);
    }
    worker_.join();  // it has finished: only its return is left
    shared_.reset();
    return result;
}

std::vector<std::string> FileDialog::model_chooser(const std::string& title) {
    // A Hugging Face folder is chosen by its config.json.
    return {"zenity", "--file-selection", "--title=" + title, "--file-filter=Models | *.safetensors config.json",
            "--file-filter=* | *"};
}

std::vector<std::string> FileDialog::data_chooser(const std::string& title) {
    return {"zenity", "--file-selection", "--title=" + title, "--file-filter=Text, ids, pairs | *.txt *.tsv *.ids",
            "--file-filter=* | *"};
}

}  // namespace attnlab::gui
