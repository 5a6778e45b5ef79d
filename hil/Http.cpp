#include "hil/Http.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <mutex>
#include <stdexcept>

namespace rdt::hil {

namespace {

using Clock = std::chrono::steady_clock;

void globalInit()
{
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            throw std::runtime_error("libcurl failed to initialise");
    });
}

/// One request in flight (or waiting for a retry).
struct Transfer {
    std::size_t index = 0;
    CURL* easy = nullptr;
    curl_slist* headers = nullptr;
    HttpResponse response;
    bool tooLarge = false;
    std::size_t limit = 0;
    Clock::time_point notBefore{};
    Clock::time_point started{};
};

std::size_t onBody(char* data, std::size_t size, std::size_t n, void* user)
{
    auto* t = static_cast<Transfer*>(user);
    const std::size_t bytes = size * n;
    if (t->response.body.size() + bytes > t->limit) {
        t->tooLarge = true;
        return 0; // aborts the transfer with CURLE_WRITE_ERROR
    }
    t->response.body.append(data, bytes);
    return bytes;
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\r' || s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && s[i] == ' ')
        ++i;
    return s.substr(i);
}

std::size_t onHeader(char* data, std::size_t size, std::size_t n, void* user)
{
    auto* t = static_cast<Transfer*>(user);
    const std::string line(data, size * n);
    const auto colon = line.find(':');
    if (colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        if (name == "x-auth-token")
            t->response.token = trimmed(line.substr(colon + 1));
        else if (name == "location")
            t->response.location = trimmed(line.substr(colon + 1));
    }
    return size * n;
}

void setUp(Transfer& t, const HttpRequest& r, const HttpOptions& o)
{
    t.easy = curl_easy_init();
    if (t.easy == nullptr)
        throw std::runtime_error("libcurl: cannot create a transfer");
    CURL* e = t.easy;
    t.limit = o.maxBytes;
    curl_easy_setopt(e, CURLOPT_URL, r.url.c_str());
    curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(std::lround(o.timeoutS * 1000)));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::lround(o.connectTimeoutS * 1000)));
    curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(o.maxBytes));
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, o.insecure ? 0L : 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, o.insecure ? 0L : 2L);
    if (!o.caCert.empty())
        curl_easy_setopt(e, CURLOPT_CAINFO, o.caCert.c_str());
    t.headers = curl_slist_append(t.headers, "Accept: application/json");
    t.headers = curl_slist_append(t.headers, "OData-Version: 4.0");
    const std::string& token = r.token.empty() ? o.token : r.token;
    if (!token.empty()) {
        t.headers = curl_slist_append(t.headers, ("X-Auth-Token: " + token).c_str());
    } else if (!o.user.empty()) {
        curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(e, CURLOPT_USERNAME, o.user.c_str());
        curl_easy_setopt(e, CURLOPT_PASSWORD, o.password.c_str());
    }
    if (r.method != "GET") {
        curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method.c_str());
        if (r.method == "POST" || r.method == "PATCH") {
            t.headers = curl_slist_append(t.headers, "Content-Type: application/json");
            curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.c_str());
            curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, static_cast<long>(r.body.size()));
        }
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headers);
}

void tearDown(Transfer& t)
{
    if (t.easy != nullptr)
        curl_easy_cleanup(t.easy);
    if (t.headers != nullptr)
        curl_slist_free_all(t.headers);
    t.easy = nullptr;
    t.headers = nullptr;
}

std::string transportError(CURLcode code, const Transfer& t, const HttpOptions& o)
{
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT: {
        char b[64];
        std::snprintf(b, sizeof b, "no answer within %g s (timeout)", o.timeoutS);
        return b;
    }
    case CURLE_COULDNT_CONNECT: return "connection refused (is the BMC up and the port right?)";
    case CURLE_COULDNT_RESOLVE_HOST: return "host name not found";
    case CURLE_WRITE_ERROR:
    case CURLE_FILESIZE_EXCEEDED:
        if (t.tooLarge || code == CURLE_FILESIZE_EXCEEDED)
            return "response larger than " + std::to_string(o.maxBytes >> 20) + " MiB: cut off";
        break;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
        return std::string("TLS certificate not trusted (") + curl_easy_strerror(code) +
               "): give the BMCs' CA with --ca-cert, or --insecure to skip verification";
    case CURLE_GOT_NOTHING: return "the server closed the connection without answering";
    default: break;
    }
    return curl_easy_strerror(code);
}

bool retryable(const HttpResponse& r)
{
    if (!r.error.empty())
        return r.error.find("MiB") == std::string::npos && r.error.find("TLS") == std::string::npos;
    return r.status >= 500;
}

} // namespace

const char* httpReason(long status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
    }
}

std::string HttpResponse::describe() const
{
    std::string s = method + " " + url + ": ";
    if (!error.empty())
        s += error;
    else
        s += "HTTP " + std::to_string(status) + (httpReason(status)[0] ? std::string(" ") + httpReason(status) : "");
    if (attempts > 1)
        s += " (" + std::to_string(attempts) + " attempts)";
    return s;
}

std::vector<HttpResponse> httpFetch(const std::vector<HttpRequest>& requests, const HttpOptions& options)
{
    globalInit();
    std::vector<HttpResponse> out(requests.size());
    std::deque<Transfer> transfers(requests.size());
    std::deque<std::size_t> queue;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        transfers[i].index = i;
        transfers[i].response.url = requests[i].url;
        transfers[i].response.method = requests[i].method;
        queue.push_back(i);
    }
    CURLM* multi = curl_multi_init();
    if (multi == nullptr)
        throw std::runtime_error("libcurl: cannot create a multi handle");
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, static_cast<long>(std::max(1, options.maxConcurrent)));
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, static_cast<long>(std::max(1, options.maxPerHost)));
    int inFlight = 0;
    std::size_t done = 0;
    const auto start = [&](Transfer& t) {
        t.response.body.clear();
        t.response.error.clear();
        t.response.status = 0;
        t.tooLarge = false;
        setUp(t, requests[t.index], options);
        t.started = Clock::now();
        ++t.response.attempts;
        curl_multi_add_handle(multi, t.easy);
        ++inFlight;
    };
    while (done < requests.size()) {
        // Start what may start: queued transfers whose retry delay has passed.
        const auto now = Clock::now();
        for (std::size_t k = queue.size(); k > 0 && inFlight < options.maxConcurrent; --k) {
            const std::size_t i = queue.front();
            queue.pop_front();
            if (transfers[i].notBefore > now)
                queue.push_back(i);
            else
                start(transfers[i]);
        }
        int running = 0;
        curl_multi_perform(multi, &running);
        int left = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            Transfer* t = nullptr;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&t));
            const CURLcode code = msg->data.result;
            curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->response.status);
            t->response.seconds = std::chrono::duration<double>(Clock::now() - t->started).count();
            if (code != CURLE_OK)
                t->response.error = transportError(code, *t, options);
            curl_multi_remove_handle(multi, t->easy);
            tearDown(*t);
            --inFlight;
            if (retryable(t->response) && t->response.attempts <= options.retries) {
                const double delay = options.retryDelayS * std::pow(2.0, t->response.attempts - 1);
                t->notBefore = Clock::now() + std::chrono::microseconds(static_cast<long long>(delay * 1e6));
                queue.push_back(t->index);
                continue;
            }
            out[t->index] = std::move(t->response);
            ++done;
        }
        if (done < requests.size())
            curl_multi_poll(multi, nullptr, 0, inFlight > 0 ? 50 : 10, nullptr);
    }
    curl_multi_cleanup(multi);
    return out;
}

} // namespace rdt::hil
