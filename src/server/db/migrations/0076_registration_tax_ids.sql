-- PAN, TAN and GSTIN get one home (issue 39): the client's registrations. Each client's tax
-- identifiers of those kinds move there when they pass the registrations' checks (format, a GST
-- state code and the GSTIN's check character, the GSTIN's PAN equal to the PAN) and the
-- registration does not already hold another value; what moved leaves tax_ids. An identifier that
-- does not pass stays a plain tax identifier, as the CSV import has always left it.
create temporary table moving_tax_ids on commit drop as
with ids as (
  select c.org_id, c.id as client_id, upper(t->>'kind') as kind,
         upper(regexp_replace(t->>'value', '\s+', '', 'g')) as value
  from clients c cross join lateral jsonb_array_elements(c.tax_ids) t
  where upper(t->>'kind') in ('PAN', 'TAN', 'GSTIN', 'GST')
),
valid as (
  select org_id, client_id, case when kind = 'GST' then 'GSTIN' else kind end as kind, value from ids
  where (kind = 'PAN' and value ~ '^[A-Z]{3}[ABCFGHJLPTE][A-Z][0-9]{4}[A-Z]$')
     or (kind = 'TAN' and value ~ '^[A-Z]{4}[0-9]{5}[A-Z]$')
     or (kind in ('GSTIN', 'GST') and value ~ '^[0-9]{2}[A-Z]{3}[ABCFGHJLPTE][A-Z][0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$'
         and substr(value, 1, 2) in ('01','02','03','04','05','06','07','08','09','10','11','12','13','14','15',
           '16','17','18','19','20','21','22','23','24','26','27','29','30','31','32','33','34','35','36','37','38','97')
         and substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', (36 - (
           select sum((d * w) / 36 + (d * w) % 36)::int % 36
           from (select strpos('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', substr(value, i, 1)) - 1 as d,
                        case when i % 2 = 1 then 1 else 2 end as w
                 from generate_series(1, 14) as i) x)) % 36 + 1, 1) = substr(value, 15, 1))
),
firsts as (
  select org_id, client_id,
         min(value) filter (where kind = 'PAN') as pan,
         min(value) filter (where kind = 'TAN') as tan,
         min(value) filter (where kind = 'GSTIN') as gstin
  from valid group by org_id, client_id
)
select f.org_id, f.client_id,
       coalesce(r.pan, f.pan) as pan,
       coalesce(r.tan, f.tan) as tan,
       case when r.gstin is not null then r.gstin
            when f.gstin is not null and substr(f.gstin, 3, 10) = coalesce(r.pan, f.pan, substr(f.gstin, 3, 10)) then f.gstin
       end as gstin,
       r.client_id is not null as registered
from firsts f
left join client_registrations r on r.org_id = f.org_id and r.client_id = f.client_id;
--> statement-breakpoint
update client_registrations r
set pan = m.pan, tan = m.tan, gstin = m.gstin, gst_state = substr(m.gstin, 1, 2),
    gst_scheme = case when m.gstin is null then null else coalesce(r.gst_scheme, 'regular') end, updated_at = now()
from moving_tax_ids m
where m.registered and r.org_id = m.org_id and r.client_id = m.client_id;
--> statement-breakpoint
insert into client_registrations (org_id, client_id, pan, tan, gstin, gst_state, gst_scheme)
select org_id, client_id, pan, tan, gstin, substr(gstin, 1, 2), case when gstin is not null then 'regular' end
from moving_tax_ids where not registered;
--> statement-breakpoint
update clients c
set tax_ids = coalesce((
  select jsonb_agg(t order by n) from jsonb_array_elements(c.tax_ids) with ordinality as e(t, n)
  where not (
    (upper(t->>'kind') = 'PAN' and upper(regexp_replace(t->>'value', '\s+', '', 'g')) = m.pan)
    or (upper(t->>'kind') = 'TAN' and upper(regexp_replace(t->>'value', '\s+', '', 'g')) = m.tan)
    or (upper(t->>'kind') in ('GSTIN', 'GST') and upper(regexp_replace(t->>'value', '\s+', '', 'g')) = m.gstin))
), '[]'::jsonb)
from moving_tax_ids m
where c.org_id = m.org_id and c.id = m.client_id;
