#include "log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace msh::cli {

namespace {

spdlog::level::level_enum spdlog_level(LogLevel level) {
    switch (level) {
    case LogLevel::Debug:
        return spdlog::level::debug;
    case LogLevel::Info:
        return spdlog::level::info;
    case LogLevel::Warn:
        return spdlog::level::warn;
    case LogLevel::Error:
        break;
    }
    return spdlog::level::err;
}

} // namespace

void show_log_from(LogLevel level) {
    static const bool started = [] {
        spdlog::set_default_logger(spdlog::stderr_color_mt("mshconv"));
        spdlog::set_pattern("%^%l%$: %v");
        return true;
    }();
    (void)started;
    spdlog::set_level(spdlog_level(level));
}

bool log_shows(LogLevel level) {
    return spdlog::get_level() <= spdlog_level(level);
}

void log_debug(const std::string& text) {
    spdlog::debug("{}", text);
}

void log_info(const std::string& text) {
    spdlog::info("{}", text);
}

void log_warn(const std::string& text) {
    spdlog::warn("{}", text);
}

void log_error(const std::string& text) {
    spdlog::error("{}", text);
}

} // namespace msh::cli
