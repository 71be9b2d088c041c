/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_WORK_REQUEST_H
#define ROCE_WORK_REQUEST_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief A send work request posted on an RC queue pair: an RDMA WRITE or a
 * SEND, with or without immediate data (on the message's last packet).
 */
struct RoceWorkRequest
{
    uint64_t id{0};         ///< the application's handle, returned in the completion
    bool write{true};       ///< RDMA WRITE; false: SEND
    bool withImm{false};    ///< carry immediate data
    uint32_t imm{0};        ///< the immediate data
    uint64_t length{0};     ///< message bytes (0 sends one empty packet)
    uint64_t remoteAddr{0}; ///< WRITE: RETH virtual address
    uint32_t rkey{0};       ///< WRITE: RETH R_Key
};

/// How a work request ended.
enum RoceCompletionStatus
{
    ROCE_WC_SUCCESS = 0,
    ROCE_WC_RETRY_EXCEEDED,     ///< transport retries (timeouts, NAKs) exhausted
    ROCE_WC_RNR_RETRY_EXCEEDED, ///< receiver-not-ready retries exhausted
    ROCE_WC_REMOTE_ERROR,       ///< NAK other than a PSN sequence error
    ROCE_WC_FLUSHED             ///< the QP entered the error state before this one finished
};

/// A completion reported to the application.
struct RoceCompletion
{
    uint64_t id{0};
    uint32_t qpn{0};
    bool write{true};
    uint64_t length{0};
    RoceCompletionStatus status{ROCE_WC_SUCCESS};
    Time posted;    ///< when the request was posted
    Time completed; ///< when its last packet was acknowledged (or it failed)
};

/// Data handed to the application on the receive side.
struct RoceReceive
{
    uint32_t qpn{0};
    uint64_t bytes{0};   ///< payload of this packet, delivered in order, once
    bool write{true};    ///< part of an RDMA WRITE; false: a SEND
    bool last{false};    ///< the message's last packet
    bool withImm{false}; ///< last packet carried immediate data
    uint32_t imm{0};
    uint64_t recvId{0}; ///< SEND: the receive buffer it fills
};

/// Name of a completion status, for logs and errors.
const char* RoceCompletionStatusName(RoceCompletionStatus s);

} // namespace ns3

#endif /* ROCE_WORK_REQUEST_H */
