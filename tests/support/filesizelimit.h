#pragma once

// Simulates a full disk for the saves tests: while a FileSizeLimit lives,
// writing past `bytes` into any file fails (RLIMIT_FSIZE, EFBIG), which is
// what a save meets when the disk fills up. Works without root or a mount.
// POSIX only; where it is not available, `active()` is false and the tests
// that need it skip.

#if defined(__unix__) || defined(__APPLE__)
#include <csignal>
#include <sys/resource.h>
#endif

class FileSizeLimit
{
public:
    explicit FileSizeLimit(unsigned long bytes)
    {
#if defined(__unix__) || defined(__APPLE__)
        m_previousHandler = std::signal(SIGXFSZ, SIG_IGN); // fail with EFBIG instead of killing the test
        m_active = getrlimit(RLIMIT_FSIZE, &m_previous) == 0;
        rlimit limited = m_previous;
        limited.rlim_cur = bytes;
        m_active = m_active && setrlimit(RLIMIT_FSIZE, &limited) == 0;
#else
        (void)bytes;
#endif
    }

    ~FileSizeLimit()
    {
#if defined(__unix__) || defined(__APPLE__)
        if (m_active)
            setrlimit(RLIMIT_FSIZE, &m_previous);
        std::signal(SIGXFSZ, m_previousHandler);
#endif
    }

    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

    bool active() const { return m_active; }

private:
    bool m_active = false;
#if defined(__unix__) || defined(__APPLE__)
    rlimit m_previous{};
    void (*m_previousHandler)(int) = nullptr;
#endif
};
