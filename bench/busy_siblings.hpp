// A machine whose cores are kept busy: child processes that each spin on a core
// until stopped (or until this process ends), for the benchmarks' "busy" runs.
#pragma once

#include <csignal>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace bench {

class BusySiblings {
public:
    BusySiblings() = default;
    BusySiblings(const BusySiblings&) = delete;
    BusySiblings& operator=(const BusySiblings&) = delete;
    ~BusySiblings() { stop(); }

    void start(int count) {
        for (int i = 0; i < count; ++i) {
            const pid_t pid = fork();
            if (pid == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlive the benchmark
                volatile unsigned long spin = 0;
                for (;;) spin = spin + 1;
            }
            if (pid > 0) pids_.push_back(pid);
        }
        usleep(20000); // let them reach the run queue
    }
    void stop() {
        for (pid_t p : pids_) kill(p, SIGKILL);
        for (pid_t p : pids_) waitpid(p, nullptr, 0);
        pids_.clear();
    }

private:
    std::vector<pid_t> pids_;
};

} // namespace bench
