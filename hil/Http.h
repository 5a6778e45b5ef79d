#pragma once
/// \file Http.h
/// Concurrent HTTP(S) requests over libcurl's multi interface: many endpoints polled at once,
/// each with a total timeout, a bounded number of retries (transport failures and 5xx only),
/// a response size limit, certificate verification on unless explicitly turned off, and basic
/// or token (Redfish session) authentication. Credentials never appear in messages.

#include <cstddef>
#include <string>
#include <vector>

namespace rdt::hil {

struct HttpOptions {
    double timeoutS = 5.0;            ///< whole request, per attempt
    double connectTimeoutS = 2.0;     ///< TCP + TLS handshake, per attempt
    int retries = 1;                  ///< extra attempts after a transport failure or 5xx
    double retryDelayS = 0.2;         ///< wait before a retry (doubles each time)
    int maxConcurrent = 64;           ///< requests in flight at once
    int maxPerHost = 4;               ///< connections to one BMC at once (BMCs are small computers)
    std::size_t maxBytes = 16u << 20; ///< larger responses are cut off and reported
    bool insecure = false;            ///< skip certificate verification (explicit opt-in only)
    std::string caCert;               ///< CA bundle (PEM) to verify the BMCs against
    std::string user, password;       ///< basic authentication when non-empty and no token
    std::string token;                ///< Redfish session token (X-Auth-Token)
};

struct HttpRequest {
    std::string url;
    std::string method = "GET"; ///< GET, POST, PATCH, DELETE
    std::string body;           ///< JSON body for POST / PATCH
    std::string token;          ///< session token for this request (overrides HttpOptions::token)
};

struct HttpResponse {
    std::string url;
    std::string method;
    long status = 0; ///< HTTP status; 0 when no response arrived
    std::string body;
    std::string error;    ///< transport error (refused, timeout, too large, TLS), empty when a response came
    std::string token;    ///< X-Auth-Token response header
    std::string location; ///< Location response header
    int attempts = 0;
    double seconds = 0; ///< time of the last attempt
    bool ok() const { return error.empty() && status >= 200 && status < 300; }
    /// `GET URL: HTTP 401 Unauthorized` / `GET URL: connection refused` (no credentials).
    std::string describe() const;
};

/// Run every request, at most maxConcurrent at a time; responses in the order of `requests`.
/// Never throws for a failing endpoint: each response carries its own error.
std::vector<HttpResponse> httpFetch(const std::vector<HttpRequest>& requests, const HttpOptions& options);

/// Reason phrase of an HTTP status (`Unauthorized`), empty when unknown.
const char* httpReason(long status);

} // namespace rdt::hil
