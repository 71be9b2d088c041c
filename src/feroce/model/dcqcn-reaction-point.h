/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_REACTION_POINT_H
#define DCQCN_REACTION_POINT_H

#include "ns3/data-rate.h"
#include "ns3/feroce-rp-fixed.h"
#include "ns3/feroce-rp.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>

namespace ns3
{

/**
 * \defgroup feroce feroce: RoCEv2 with DCQCN
 */

/**
 * \ingroup feroce
 * \brief DCQCN reaction point of one queue pair: the sender's rate limiter.
 *
 * Wraps the C core (feroce-rp.h) with every parameter of spec/dcqcn.md as an
 * attribute.  No event is ever scheduled: the core evaluates its timers
 * lazily, so each call first brings the state to Simulator::Now().  A caller
 * that must act when the rate changes on its own (a paced sender) asks
 * GetNextDeadline().
 *
 * Parameters are read from the attributes at the first call (or at
 * Initialize()); Validate() reports a bad value by name before that.
 *
 * FixedPointFormat non-empty runs the core's fixed-point model
 * (feroce-rp-fixed.h) instead: rates are its registers times their LSB, and
 * GetFixedRegisters() gives the registers.
 */
class DcqcnReactionPoint : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DcqcnReactionPoint();
    ~DcqcnReactionPoint() override;

    /**
     * \brief Set every parameter attribute from a preset of spec/dcqcn.md.
     * \param name paper, connectx or hpcc
     * \param lineRate the line rate the preset is built for (hpcc scales with it)
     * \return an empty string, or a message naming the bad name or rate
     */
    std::string ApplyPreset(const std::string& name, DataRate lineRate);

    /**
     * \brief Check the attributes.
     * \return an empty string, or a message naming the parameter, its value and the allowed range
     */
    std::string Validate() const;

    /**
     * The parameters as the C core takes them, for devices that run one
     * reaction point per queue pair.  Returns "" or the validation message.
     */
    std::string GetCoreParameters(feroce_rp_params* out) const;

    /// A CNP for this QP arrives now.
    void ReceiveCnp();

    /**
     * \brief The QP transmitted a packet now (feeds the byte counter).
     * \param bytes bytes put on the wire for it
     */
    void NotifyTransmitted(uint32_t bytes);

    /// \return the current rate Rc, in b/s, at Simulator::Now()
    double GetRateBps();

    /// \return the current rate Rc at Simulator::Now(), rounded down to whole b/s
    DataRate GetRate();

    /// \return the state variables (Rc, Rt, alpha, stages) at Simulator::Now(); in fixed point,
    /// the registers as rates, alpha and counts (timers in ns)
    const feroce_rp_vars& GetState();

    /// \return the fixed-point registers at Simulator::Now(), or nullptr when FixedPointFormat
    /// is empty
    const feroce_rp_fixed_regs* GetFixedRegisters();

    /// \return the register format and rules in register units, or nullptr in double precision
    /// (valid once the reaction point started: after the first call or Initialize())
    const feroce_rp_fixed_params* GetFixedParameters() const;

    /**
     * \brief The next instant a timer can change the rate on its own.
     * \return that time, or Time::Max() when none is pending
     */
    Time GetNextDeadline();

    /**
     * TracedCallback signature for rate changes.
     * \param [in] oldRate Rc before, b/s
     * \param [in] newRate Rc after, b/s
     */
    typedef void (*RateTracedCallback)(double oldRate, double newRate);

  protected:
    void DoInitialize() override;

  private:
    /// Build and validate the core's parameters from the attributes, once.
    void Start();
    /// \return the core's parameters as the attributes say, and an error message if one is bad
    feroce_rp_params ToCore(std::string* error) const;
    /// Fire the Rate trace if Rc moved since the last call.
    void ReportRate();
    /// \return Rc in b/s after the last call (either model)
    double CurrentRate() const;
    /// Build the fixed-point parameters from FixedPointFormat and `rules`; "" or the message.
    std::string BuildFixed(const feroce_rp_params& rules, feroce_rp_fixed_params* out) const;

    DataRate m_lineRate;
    DataRate m_minRate;
    double m_g;
    double m_initialAlpha;
    std::string m_alphaMode;
    Time m_alphaPeriod;
    Time m_decreasePeriod;
    Time m_increaseTimer;
    uint64_t m_byteCounter;
    uint32_t m_fastRecoveryStages;
    DataRate m_rai;
    DataRate m_rhai;
    std::string m_haiMode;
    std::string m_clamp;
    DataRate m_firstCnpRate;
    std::string m_fixedPointFormat;

    bool m_started;
    feroce_rp_params m_params;
    feroce_rp_state m_state;
    bool m_fixed; ///< the fixed-point model runs
    feroce_rp_fixed_params m_fixedParams;
    feroce_rp_fixed_state m_fixedState;
    feroce_rp_vars m_fixedView; ///< GetState()'s view of the registers
    double m_reportedRate;
    TracedCallback<double, double> m_rateTrace;
};

} // namespace ns3

#endif /* DCQCN_REACTION_POINT_H */
