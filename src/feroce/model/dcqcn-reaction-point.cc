/*
 * Copyright (c) 2026 feroce authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-reaction-point.h"

#include "feroce-attributes.h"

#include "ns3/double.h"
#include "ns3/fatal-error.h"
#include "ns3/feroce-sim.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnReactionPoint");

NS_OBJECT_ENSURE_REGISTERED(DcqcnReactionPoint);

TypeId
DcqcnReactionPoint::GetTypeId()
{
    // Initial values: the paper preset of src/feroce/doc/dcqcn.md at 10 Gb/s.
    static TypeId tid =
        TypeId("ns3::DcqcnReactionPoint")
            .SetParent<Object>()
            .SetGroupName("Feroce")
            .AddConstructor<DcqcnReactionPoint>()
            .AddAttribute("LineRate",
                          "Line rate: the initial and the highest Rc and Rt (line_rate_bps)",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&DcqcnReactionPoint::m_lineRate),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Rate floor of every cut (min_rate_bps)",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&DcqcnReactionPoint::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("G",
                          "Alpha gain g, in (0, 1]",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnReactionPoint::m_g),
                          MakeDoubleChecker<double>())
            .AddAttribute("InitialAlpha",
                          "Alpha set at the first CNP, in [0, 1]",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnReactionPoint::m_initialAlpha),
                          MakeDoubleChecker<double>())
            .AddAttribute("AlphaMode",
                          "on_cnp (SIGCOMM'15: update at each CNP) or periodic (ConnectX: "
                          "a tick every AlphaPeriod folds in a CNP flag)",
                          StringValue("on_cnp"),
                          MakeStringAccessor(&DcqcnReactionPoint::m_alphaMode),
                          MakeStringChecker())
            .AddAttribute("AlphaPeriod",
                          "Alpha timer K",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnReactionPoint::m_alphaPeriod),
                          MakeTimeChecker())
            .AddAttribute("DecreasePeriod",
                          "D: 0 cuts at each CNP; > 0 cuts at most once per period",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&DcqcnReactionPoint::m_decreasePeriod),
                          MakeTimeChecker())
            .AddAttribute("IncreaseTimer",
                          "Rate-increase timer T",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnReactionPoint::m_increaseTimer),
                          MakeTimeChecker())
            .AddAttribute("ByteCounter",
                          "B: bytes per byte-counter event; 0 disables the byte counter",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&DcqcnReactionPoint::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoveryStages",
                          "F: fast-recovery stages",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnReactionPoint::m_fastRecoveryStages),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "R_AI: additive-increase step",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnReactionPoint::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "R_HAI: hyper-increase step",
                          DataRateValue(DataRate("50Mbps")),
                          MakeDataRateAccessor(&DcqcnReactionPoint::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("HaiMode",
                          "constant (step R_HAI) or linear (step R_HAI x (stage - F))",
                          StringValue("linear"),
                          MakeStringAccessor(&DcqcnReactionPoint::m_haiMode),
                          MakeStringChecker())
            .AddAttribute("Clamp",
                          "always (Rt <- Rc at every cut) or after_increase (only after an "
                          "increase event, or at the first cut)",
                          StringValue("always"),
                          MakeStringAccessor(&DcqcnReactionPoint::m_clamp),
                          MakeStringChecker())
            .AddAttribute("FirstCnpRate",
                          "0, or the rate set at the first CNP instead of a cut",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&DcqcnReactionPoint::m_firstCnpRate),
                          MakeDataRateChecker())
            .AddAttribute("FixedPointFormat",
                          "Empty: double precision.  Otherwise the firmware register format of "
                          "the fixed-point model: a preset (default or surf), then "
                          "comma-separated field=value settings (clock_hz, rate_bits, "
                          "rate_lsb_bps, alpha_bits, rounding, rate_rounding, alpha_rounding)",
                          StringValue(""),
                          MakeStringAccessor(&DcqcnReactionPoint::m_fixedPointFormat),
                          MakeStringChecker())
            .AddTraceSource("Rate",
                            "The current rate Rc changed (old, new, in b/s)",
                            MakeTraceSourceAccessor(&DcqcnReactionPoint::m_rateTrace),
                            "ns3::DcqcnReactionPoint::RateTracedCallback");
    return tid;
}

DcqcnReactionPoint::DcqcnReactionPoint()
    : m_started(false),
      m_params(),
      m_state(),
      m_fixed(false),
      m_fixedParams(),
      m_fixedState(),
      m_fixedView(),
      m_reportedRate(0)
{
    NS_LOG_FUNCTION(this);
}

DcqcnReactionPoint::~DcqcnReactionPoint()
{
    NS_LOG_FUNCTION(this);
}

std::string
DcqcnReactionPoint::ApplyPreset(const std::string& name, DataRate lineRate)
{
    NS_LOG_FUNCTION(this << name << lineRate);
    NS_ASSERT_MSG(!m_started, "ApplyPreset after the reaction point started");
    feroce_rp_params p;
    feroce_check why;
    if (feroce_rp_preset(&p, name.c_str(), static_cast<double>(lineRate.GetBitRate()), &why) !=
        FEROCE_OK)
    {
        char msg[512];
        feroce_check_message(&why, msg, sizeof msg);
        return msg;
    }
    m_lineRate = DataRate(static_cast<uint64_t>(p.line_rate_bps));
    m_minRate = DataRate(static_cast<uint64_t>(p.min_rate_bps));
    m_g = p.g;
    m_initialAlpha = p.initial_alpha;
    m_alphaMode = feroce_alpha_mode_name(p.alpha_mode);
    m_alphaPeriod = NanoSeconds(p.alpha_period_ns);
    m_decreasePeriod = NanoSeconds(p.decrease_period_ns);
    m_increaseTimer = NanoSeconds(p.increase_timer_ns);
    m_byteCounter = p.byte_counter_bytes;
    m_fastRecoveryStages = p.F;
    m_rai = DataRate(static_cast<uint64_t>(p.rai_bps));
    m_rhai = DataRate(static_cast<uint64_t>(p.rhai_bps));
    m_haiMode = feroce_hai_mode_name(p.hai_mode);
    m_clamp = feroce_clamp_name(p.clamp);
    m_firstCnpRate = DataRate(static_cast<uint64_t>(p.first_cnp_rate_bps));
    // the user's defaults (--ns3::DcqcnReactionPoint::G=... or Config::SetDefault) win over the
    // preset; LineRate is the caller's
    ApplyChangedDefaults(this, GetTypeId(), {"LineRate"});
    return "";
}

feroce_rp_params
DcqcnReactionPoint::ToCore(std::string* error) const
{
    feroce_rp_params p{};
    p.line_rate_bps = static_cast<double>(m_lineRate.GetBitRate());
    p.min_rate_bps = static_cast<double>(m_minRate.GetBitRate());
    p.g = m_g;
    p.initial_alpha = m_initialAlpha;
    p.alpha_period_ns = m_alphaPeriod.GetNanoSeconds();
    p.decrease_period_ns = m_decreasePeriod.GetNanoSeconds();
    p.increase_timer_ns = m_increaseTimer.GetNanoSeconds();
    p.byte_counter_bytes = m_byteCounter;
    p.F = m_fastRecoveryStages;
    p.rai_bps = static_cast<double>(m_rai.GetBitRate());
    p.rhai_bps = static_cast<double>(m_rhai.GetBitRate());
    p.first_cnp_rate_bps = static_cast<double>(m_firstCnpRate.GetBitRate());

    // the modes are named as in the spec; the core parses and checks them
    feroce_check why{};
    if (feroce_rp_set_param(&p, "alpha_mode", m_alphaMode.c_str(), &why) != FEROCE_OK ||
        feroce_rp_set_param(&p, "hai_mode", m_haiMode.c_str(), &why) != FEROCE_OK ||
        feroce_rp_set_param(&p, "clamp", m_clamp.c_str(), &why) != FEROCE_OK ||
        feroce_rp_validate(&p, &why) != FEROCE_OK)
    {
        *error = AttributeCheckMessage(why);
    }
    return p;
}

std::string
DcqcnReactionPoint::BuildFixed(const feroce_rp_params& rules, feroce_rp_fixed_params* out) const
{
    feroce_rp_fixed_format fmt;
    feroce_check why{};
    if (feroce_rp_fixed_parse_format(&fmt, m_fixedPointFormat.c_str(), &why) != FEROCE_OK ||
        feroce_rp_fixed_build(out, &rules, &fmt, &why) != FEROCE_OK)
    {
        char msg[512];
        feroce_check_message(&why, msg, sizeof msg);
        return "FixedPointFormat = " + m_fixedPointFormat + ": " + msg;
    }
    return "";
}

std::string
DcqcnReactionPoint::Validate() const
{
    std::string error;
    feroce_rp_params rules = ToCore(&error);
    if (error.empty() && !m_fixedPointFormat.empty())
    {
        feroce_rp_fixed_params fixed;
        error = BuildFixed(rules, &fixed);
    }
    return error;
}

const feroce_rp_fixed_params*
DcqcnReactionPoint::GetFixedParameters() const
{
    return m_started && m_fixed ? &m_fixedParams : nullptr;
}

double
DcqcnReactionPoint::CurrentRate() const
{
    return m_fixed ? feroce_rp_fixed_rate(&m_fixedState, &m_fixedParams) : feroce_rp_rate(&m_state);
}

std::string
DcqcnReactionPoint::GetCoreParameters(feroce_rp_params* out) const
{
    std::string error;
    *out = ToCore(&error);
    return error;
}

void
DcqcnReactionPoint::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    Start();
    Object::DoInitialize();
}

void
DcqcnReactionPoint::Start()
{
    if (m_started)
    {
        return;
    }
    std::string error;
    m_params = ToCore(&error);
    if (!error.empty())
    {
        NS_FATAL_ERROR("DcqcnReactionPoint: " << error);
    }
    int64_t now = FeroceSim::Now().GetNanoSeconds();
    m_fixed = !m_fixedPointFormat.empty();
    if (m_fixed)
    {
        error = BuildFixed(m_params, &m_fixedParams);
        if (!error.empty())
        {
            NS_FATAL_ERROR("DcqcnReactionPoint: " << error);
        }
        feroce_rp_fixed_init(&m_fixedState,
                             &m_fixedParams,
                             feroce_rp_fixed_cycle_at(&m_fixedParams, now));
    }
    feroce_rp_init(&m_state, &m_params, now);
    m_reportedRate = CurrentRate();
    m_started = true;
}

void
DcqcnReactionPoint::ReportRate()
{
    double rate = CurrentRate();
    if (rate != m_reportedRate)
    {
        NS_LOG_DEBUG("Rc " << m_reportedRate << " -> " << rate);
        m_rateTrace(m_reportedRate, rate);
        m_reportedRate = rate;
    }
}

void
DcqcnReactionPoint::ReceiveCnp()
{
    NS_LOG_FUNCTION(this);
    Start();
    int64_t now = FeroceSim::Now().GetNanoSeconds();
    feroce_err err = m_fixed ? feroce_rp_fixed_cnp(&m_fixedState,
                                                   &m_fixedParams,
                                                   feroce_rp_fixed_cycle_at(&m_fixedParams, now))
                             : feroce_rp_cnp(&m_state, &m_params, now);
    NS_ASSERT_MSG(err == FEROCE_OK, feroce_err_name(err));
    (void)err;
    ReportRate();
}

void
DcqcnReactionPoint::NotifyTransmitted(uint32_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    Start();
    int64_t now = FeroceSim::Now().GetNanoSeconds();
    feroce_err err = m_fixed ? feroce_rp_fixed_tx(&m_fixedState,
                                                  &m_fixedParams,
                                                  feroce_rp_fixed_cycle_at(&m_fixedParams, now),
                                                  bytes)
                             : feroce_rp_tx(&m_state, &m_params, now, bytes);
    NS_ASSERT_MSG(err == FEROCE_OK, feroce_err_name(err));
    (void)err;
    ReportRate();
}

const feroce_rp_vars&
DcqcnReactionPoint::GetState()
{
    Start();
    int64_t now = FeroceSim::Now().GetNanoSeconds();
    feroce_err err = m_fixed
                         ? feroce_rp_fixed_advance(&m_fixedState,
                                                   &m_fixedParams,
                                                   feroce_rp_fixed_cycle_at(&m_fixedParams, now))
                         : feroce_rp_advance(&m_state, &m_params, now);
    NS_ASSERT_MSG(err == FEROCE_OK, feroce_err_name(err));
    (void)err;
    ReportRate();
    if (!m_fixed)
    {
        return m_state.cur;
    }
    // the registers as the double model's variables: rates in b/s, alpha, timers in ns
    const feroce_rp_fixed_regs& r = m_fixedState.cur;
    auto ns = [this](int64_t cycle) {
        return cycle == FEROCE_NEVER ? FEROCE_NEVER : feroce_rp_fixed_ns_at(&m_fixedParams, cycle);
    };
    m_fixedView.rc = feroce_rp_fixed_bps(&m_fixedParams, r.rc);
    m_fixedView.rt = feroce_rp_fixed_bps(&m_fixedParams, r.rt);
    m_fixedView.alpha = feroce_rp_fixed_alpha_value(&m_fixedParams, r.alpha);
    m_fixedView.ts = r.ts;
    m_fixedView.bs = r.bs;
    m_fixedView.byte_acc = r.byte_acc;
    m_fixedView.next_alpha = ns(r.next_alpha);
    m_fixedView.next_dec = ns(r.next_dec);
    m_fixedView.next_inc = ns(r.next_inc);
    m_fixedView.active = r.active;
    m_fixedView.alpha_flag = r.alpha_flag;
    m_fixedView.dec_flag = r.dec_flag;
    m_fixedView.may_clamp = r.may_clamp;
    return m_fixedView;
}

const feroce_rp_fixed_regs*
DcqcnReactionPoint::GetFixedRegisters()
{
    GetState();
    return m_fixed ? &m_fixedState.cur : nullptr;
}

double
DcqcnReactionPoint::GetRateBps()
{
    return GetState().rc;
}

DataRate
DcqcnReactionPoint::GetRate()
{
    return DataRate(static_cast<uint64_t>(GetRateBps()));
}

Time
DcqcnReactionPoint::GetNextDeadline()
{
    GetState();
    if (m_fixed)
    {
        int64_t cycle = feroce_rp_fixed_next_deadline(&m_fixedState, &m_fixedParams);
        return cycle == FEROCE_NEVER ? Time::Max()
                                     : NanoSeconds(feroce_rp_fixed_ns_at(&m_fixedParams, cycle));
    }
    int64_t deadline = feroce_rp_next_deadline(&m_state, &m_params);
    return deadline == FEROCE_NEVER ? Time::Max() : NanoSeconds(deadline);
}

} // namespace ns3
