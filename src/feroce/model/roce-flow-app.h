/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_FLOW_APP_H
#define ROCE_FLOW_APP_H

#include "roce-nic.h"
#include "roce-work-request.h"

#include "ns3/feroce-flows.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup feroce
 * \brief Runs flows between the hosts of a fabric, each on a queue pair of its own, and
 * reports their completion times.
 *
 * A flow (feroce_flow: source and destination node, size, start, priority, operation) opens a
 * queue pair on its source's NIC and one on its destination's at its start, connected to each
 * other, and posts one work request of its size (an RDMA WRITE, a WRITE with immediate, or a
 * SEND into a receive buffer posted for it).  When the ACK of its last packet completes the
 * request at the source, the flow is done: its FCT (start to completion) is reported, and both
 * queue pairs are released (RoceNic::ReleaseQueuePair, at the same instant, after the
 * completion's callbacks), so memory follows the flows in progress, not the flows run.  The
 * k-th flow between two nodes gets UDP source port 0xc000 + k (mod 2^14), as the HPCC
 * simulator counts its ports per pair: flows of one pair may take different ECMP paths.  A
 * request that fails (retries exhausted) ends its flow the same way, reported as failed.
 *
 * Flows come from a source, asked for one at a time in start order (a flow file's list, or
 * feroce_traffic's generators): one event waits for the next start, whatever the number of
 * flows to come.
 */
class RoceFlowApp : public Object
{
  public:
    static TypeId GetTypeId();

    RoceFlowApp();
    ~RoceFlowApp() override;

    /// The NIC of each node, by the node's index in the flows (null for a switch).
    void SetNics(const std::vector<Ptr<RoceNic>>& nics);
    /// The next flow in start order into f; false when there are no more.
    typedef std::function<bool(feroce_flow& f)> Source;
    void SetSource(Source next);
    /// Ask the source for the first flow and schedule it (before Simulator::Run).
    void Start();

    /// A flow that ended.
    struct Record
    {
        uint64_t id; ///< the how-manieth flow started (from 0)
        feroce_flow flow;
        uint16_t sport; ///< its UDP source port (ECMP's entropy)
        Time fct;       ///< start to completion
        RoceCompletionStatus status;
        feroce_message_frames frames; ///< its frames on the wire (for the standalone FCT)
    };

    typedef void (*FlowTracedCallback)(const Record& r);
    typedef Callback<void, const Record&> DoneCallback;
    /// Called for each flow that ends (besides the FlowDone trace).
    void SetDoneCallback(DoneCallback cb);

    /// A flow in progress: its id, the flow and the bytes its destination has received.
    typedef std::function<void(uint64_t id, const feroce_flow& f, uint64_t received)> ActiveVisitor;
    void ForEachActive(const ActiveVisitor& visit) const;

    struct Counters
    {
        uint64_t started{0};
        uint64_t completed{0};
        uint64_t failed{0};
        uint64_t active{0};
        uint64_t peakActive{0};
    };

    const Counters& GetCounters() const;

  protected:
    void DoDispose() override;

  private:
    /// Open every flow that starts now, then wait for the next.
    void StartDue();
    void Open(const feroce_flow& f);
    void Completed(const RoceCompletion& c);
    /// Release the queue pairs of the flows that ended at this instant.
    void Reap();

    struct Active
    {
        feroce_flow flow;
        uint64_t id;
        Ptr<RoceQueuePair> tx;
        Ptr<RoceQueuePair> rx;
    };

    std::vector<Ptr<RoceNic>> m_nics;
    Source m_source;
    feroce_flow m_next{};
    bool m_hasNext{false};
    std::vector<Active> m_active; ///< slots, by the work request's id
    std::vector<uint32_t> m_freeSlots;
    std::vector<uint32_t> m_ended;                      ///< slots whose queue pairs Reap releases
    std::unordered_map<uint64_t, uint16_t> m_pairFlows; ///< (src, dst) -> flows so far
    Counters m_counters;
    DoneCallback m_doneCb;
    TracedCallback<const Record&> m_doneTrace;
};

} // namespace ns3

#endif /* ROCE_FLOW_APP_H */
